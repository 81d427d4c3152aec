"""`?ordering=` that refuses what it cannot sort by (DRF's own filter silently ignores it, so a
typo looked like a sort that did nothing), and the filter backend that lists a bad filter and a
bad ordering in one 400."""

from django.db.models import F
from django_filters import utils as filter_utils
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter


def ordering_problems(backend: OrderingFilter, request, queryset, view) -> dict[str, list[str]]:
    """{"ordering": [one message per unknown field]} or {} when every field may be sorted by."""
    raw = request.query_params.get(backend.ordering_param)
    if not raw:
        return {}
    valid = [name for name, _label in backend.get_valid_fields(queryset, view, {"request": request})]
    terms = [term.strip() for term in raw.split(",")]
    unknown = [term for term in terms if term.removeprefix("-") not in valid]
    if not unknown:
        return {}
    allowed = ", ".join(valid)
    return {"ordering": [f"cannot sort by {term!r}; sortable fields: {allowed}" for term in unknown]}


class StrictOrderingFilter(OrderingFilter):
    """A view's `ordering_fields` are the only sortable names; any other is a 400 naming it."""

    def filter_queryset(self, request, queryset, view):
        problems = ordering_problems(self, request, queryset, view)
        if problems:
            raise ValidationError(problems)
        ordering = self.get_ordering(request, queryset, view)
        if not ordering:
            return queryset
        # Empty values last both ways (PostgreSQL puts NULL first when descending): "highest penalty
        # first" must not open with the preventive tickets, whose penalty is not known yet.
        return queryset.order_by(
            *(
                F(term[1:]).desc(nulls_last=True) if term.startswith("-") else F(term).asc(nulls_last=True)
                for term in ordering
            ),
            "pk",  # ties in one order, the same for a page and for the CSV export's server-side cursor
        )


class LightpathFilterBackend(DjangoFilterBackend):
    """django-filter's backend, whose 400 also lists the ordering's problems: one answer names
    every mistake of the query string."""

    def filter_queryset(self, request, queryset, view):
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        if not filterset.is_valid():
            problems = dict(filter_utils.translate_validation(filterset.errors).detail)
            problems.update(ordering_problems(StrictOrderingFilter(), request, queryset, view))
            raise ValidationError(problems)
        return filterset.qs
