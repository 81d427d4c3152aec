"""NetBox-style filter sets: each field listed in Meta.fields gets `__n` (not) and, for numbers
and dates, `__gte`/`__lte`/`__gt`/`__lt`, for text `__ic`/`__isw`/`__iew`/`__ie`. Repeating
a parameter means OR (`?pod=1&pod=2`)."""

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
        return filters
