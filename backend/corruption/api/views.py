from rest_framework import viewsets

from lightpath.api.viewsets import BriefModeMixin

from ..filtersets import DecisionFilterSet
from ..models import Decision
from .serializers import DecisionSerializer


class DecisionViewSet(BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """CorrOpt decisions: links disabled for corruption, or kept enabled for capacity with the
    ToR that blocked it. `?kept_for_capacity=true` lists the links that are now corrupting and
    kept. Read-only: decisions are made by the workers."""

    queryset = Decision.objects.select_related("link__a_switch", "link__z_switch", "blocking_tor")
    serializer_class = DecisionSerializer
    filterset_class = DecisionFilterSet
    ordering_fields = ["created", "penalty"]
    write_roles: set[str] = set()
