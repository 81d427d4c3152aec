import django_filters

from lightpath.api.filters import LightpathFilterSet, MultiValueCharFilter, MultiValueIntegerFilter

from . import services
from .models import Decision, Ticket


class DecisionFilterSet(LightpathFilterSet):
    kept_for_capacity = django_filters.BooleanFilter(
        method="filter_kept_for_capacity",
        label="The link's newest decision kept it enabled for capacity, and it still is (event open, enabled)",
    )

    class Meta:
        model = Decision
        fields = ["fabric", "link", "event", "kind", "action", "blocking_tor", "job", "penalty", "created"]

    def filter_kept_for_capacity(self, queryset, name, value):
        kept = services.kept_for_capacity(queryset)
        return kept if value else queryset.exclude(pk__in=kept.values("pk"))


class TicketFilterSet(LightpathFilterSet):
    pod = MultiValueIntegerFilter(field_name="link__a_switch__pod", label="Pod of the link's lower end (its ToR)")
    assignee = MultiValueCharFilter(field_name="assignee__username", label="Assignee's username")
    unassigned = django_filters.BooleanFilter(
        field_name="assignee", lookup_expr="isnull", label="true: tickets nobody is assigned to; false: assigned ones"
    )

    class Meta:
        model = Ticket
        fields = ["fabric", "link", "kind", "state", "direction", "created", "resolved_at"]
