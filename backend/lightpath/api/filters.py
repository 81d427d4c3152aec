"""NetBox-style filter sets: each field listed in Meta.fields gets `__n` (not) and, for numbers
and dates, `__gte`/`__lte`/`__gt`/`__lt`, for text `__ic`/`__isw`/`__iew`/`__ie`. Repeating
a parameter means OR (`?pod=1&pod=2`)."""

import datetime as dt

import django_filters
from django import forms
from django.db import models

TEXT_LOOKUPS = {"ic": "icontains", "isw": "istartswith", "iew": "iendswith", "ie": "iexact"}
RANGE_LOOKUPS = ("gte", "lte", "gt", "lt")


class _AnyValueMultipleField(forms.MultipleChoiceField):
    """Any text is a valid choice, except NUL, which PostgreSQL text cannot hold."""

    def valid_value(self, value):
        return "\x00" not in str(value)


class _IntegerMultipleField(forms.MultipleChoiceField):
    default_error_messages = {"invalid_choice": "%(value)s is not an integer."}

    def valid_value(self, value):
        try:
            int(value)
        except (TypeError, ValueError):
            return False
        return True


# PostgreSQL's timestamptz takes UTC offsets up to 15:59 either way; beyond, it raises an error.
MAX_UTC_OFFSET = dt.timedelta(hours=15, minutes=59)


def _bounded_datetime_field(field_class: type[forms.Field]) -> type[forms.Field]:
    """`field_class` refusing datetimes PostgreSQL cannot compare with (a 400, not a 500)."""

    class BoundedDateTimeField(field_class):  # type: ignore[valid-type,misc]
        bounded_for_postgres = True

        def to_python(self, value):
            result = super().to_python(value)
            offset = result.utcoffset() if isinstance(result, dt.datetime) else None
            if offset is not None and abs(offset) > MAX_UTC_OFFSET:
                raise forms.ValidationError(f"{value} has a UTC offset beyond ±15:59.", code="invalid")
            return result

    BoundedDateTimeField.__name__ = f"Bounded{field_class.__name__}"
    return BoundedDateTimeField


class MultiValueCharFilter(django_filters.MultipleChoiceFilter):
    field_class = _AnyValueMultipleField


class MultiValueIntegerFilter(django_filters.MultipleChoiceFilter):
    field_class = _IntegerMultipleField


def _exact_filter(field: models.Field, name: str, exclude: bool = False) -> django_filters.Filter:
    if isinstance(field, models.ForeignKey):
        return django_filters.ModelMultipleChoiceFilter(
            field_name=name, queryset=field.related_model._default_manager.all(), exclude=exclude
        )
    if field.choices:
        return django_filters.MultipleChoiceFilter(field_name=name, choices=field.choices, exclude=exclude)
    if isinstance(field, models.IntegerField):
        return MultiValueIntegerFilter(field_name=name, exclude=exclude)
    if isinstance(field, models.FloatField):
        return django_filters.NumberFilter(field_name=name, exclude=exclude)
    if isinstance(field, models.DateTimeField):
        return django_filters.IsoDateTimeFilter(field_name=name, exclude=exclude)
    if isinstance(field, models.BooleanField):
        return django_filters.BooleanFilter(field_name=name, exclude=exclude)
    return MultiValueCharFilter(field_name=name, exclude=exclude)


class LightpathFilterSet(django_filters.FilterSet):
    """Declare `Meta.model` and `Meta.fields` (field names); the lookups are generated."""

    @classmethod
    def get_filters(cls):
        filters = super().get_filters()
        cls._add_lookups(filters)
        # Every datetime filter, generated or declared by an app, takes only what PostgreSQL can compare.
        for item in filters.values():
            field_class = item.field_class
            if issubclass(field_class, forms.DateTimeField) and not getattr(field_class, "bounded_for_postgres", False):
                item.field_class = _bounded_datetime_field(field_class)
        return filters

    @classmethod
    def _add_lookups(cls, filters) -> None:
        for name in cls._meta.fields or []:
            field = cls._meta.model._meta.get_field(name)
            filters[name] = _exact_filter(field, name)
            if isinstance(field, models.BooleanField):
                continue
            filters[f"{name}__n"] = _exact_filter(field, name, exclude=True)
            if isinstance(field, (models.IntegerField, models.FloatField, models.DateTimeField)):
                filter_class = (
                    django_filters.IsoDateTimeFilter
                    if isinstance(field, models.DateTimeField)
                    else django_filters.NumberFilter
                )
                for lookup in RANGE_LOOKUPS:
                    filters[f"{name}__{lookup}"] = filter_class(field_name=name, lookup_expr=lookup)
            elif isinstance(field, (models.CharField, models.TextField)) and not field.choices:
                for suffix, lookup in TEXT_LOOKUPS.items():
                    filters[f"{name}__{suffix}"] = django_filters.CharFilter(field_name=name, lookup_expr=lookup)
