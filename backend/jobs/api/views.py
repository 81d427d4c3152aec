from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from accounts.roles import ADMIN, OPERATOR, ROLES, user_roles
from lightpath.api.viewsets import BriefModeMixin

from .. import services
from ..filtersets import JobFilterSet
from ..models import Job
from ..registry import KINDS
from .serializers import JobSerializer


class JobViewSet(BriefModeMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Background jobs. Who may start one depends on its kind (GET /api/jobs/kinds/);
    a job may be cancelled by whoever started it, an operator or an admin."""

    queryset = Job.objects.select_related("created_by")
    serializer_class = JobSerializer
    filterset_class = JobFilterSet
    write_roles = {"create": set(ROLES), "cancel": set(ROLES)}

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        kind = KINDS[serializer.validated_data["kind"]]
        roles = user_roles(request.user)
        if ADMIN not in roles and not roles & kind.roles:
            raise PermissionDenied(f"Your role may not start '{kind.name}' jobs.")
        job = services.submit(
            kind.name,
            user=request.user,
            fabric=serializer.validated_data.get("fabric"),
            params=serializer.validated_data.get("params") or {},
        )
        return Response(self.get_serializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses=JobSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        job = self.get_object()
        roles = user_roles(request.user)
        if job.created_by_id != request.user.pk and not roles & {OPERATOR, ADMIN}:
            raise PermissionDenied("Only the job's creator, an operator or an admin may cancel it.")
        return Response(self.get_serializer(services.cancel(job)).data)

    @extend_schema(
        responses=inline_serializer(
            "JobKind",
            {"name": serializers.CharField(), "description": serializers.CharField(),
             "roles": serializers.ListField(child=serializers.CharField()), "needs_fabric": serializers.BooleanField()},
            many=True,
        )
    )  # fmt: skip
    @action(detail=False, methods=["get"], pagination_class=None, filterset_class=None)
    def kinds(self, request):
        return Response(
            [
                {"name": k.name, "description": k.description, "roles": sorted(k.roles), "needs_fabric": k.needs_fabric}
                for k in sorted(KINDS.values(), key=lambda k: k.name)
            ]
        )
