"""The range of values a model field can store, read from the field itself.

Serializers get these bounds from Django (an IntegerField carries its column's range as
validators, DRF turns them into min_value/max_value); code that validates input by hand (the
fabric import) asks here, so that a value beyond the column is a 400 listing the row, not a
database error.
"""

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models


def field_bounds(field: models.Field) -> tuple[float | None, float | None]:
    """(lowest, highest) value the field accepts; None where unbounded."""
    lowest: float | None = None
    highest: float | None = None
    for validator in field.validators:  # an IntegerField's include its column's range
        if isinstance(validator, MinValueValidator):
            lowest = validator.limit_value if lowest is None else max(lowest, validator.limit_value)
        elif isinstance(validator, MaxValueValidator):
            highest = validator.limit_value if highest is None else min(highest, validator.limit_value)
    if isinstance(field, models.DecimalField) and field.max_digits is not None:
        places = field.decimal_places or 0
        limit = float(Decimal(10) ** (field.max_digits - places) - Decimal(10) ** -places)
        highest = limit if highest is None else min(highest, limit)
        lowest = -limit if lowest is None else max(lowest, -limit)
    return lowest, highest


def model_bounds(model: type[models.Model], name: str) -> tuple[float | None, float | None]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), f"{model.__name__}.{name} is a relation's reverse side"
    return field_bounds(field)
