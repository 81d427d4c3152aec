from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import RolePermission
from jobs.api.serializers import JobSerializer

from ..services import fec, plan_rows
from .serializers import RailPlanJobSerializer, RailPlanLinksSerializer


class RailFecView(APIView):
    """The coding one path needs to bring its loss down to a target (docs/rail.md, "FEC"): none below
    the target, XOR with the largest n meeting it, triple replication up to 10 %, else unusable.
    Read-only: every role."""

    permission_classes = [RolePermission]
    write_roles: set[str] = set()

    @extend_schema(
        parameters=[
            OpenApiParameter("loss", float, required=True, description="Path loss rate, a fraction in [0, 1]."),
            OpenApiParameter("target", float, description="Loss after recovery, a fraction in (0, 1); 0.001."),
        ],
        responses=inline_serializer(
            "RailFec",
            {
                "loss": serializers.FloatField(),
                "target": serializers.FloatField(),
                "scheme": serializers.ChoiceField(choices=["none", "xor", "replicate3", "unusable"]),
                "n": serializers.IntegerField(allow_null=True, help_text="XOR: data packets per parity packet."),
                "residual_loss": serializers.FloatField(),
                "overhead": serializers.FloatField(help_text="Extra packets per data packet: 1/n, or 2."),
            },
        ),
    )
    def get(self, request):
        return Response(fec.choose(request.query_params))


class RailPlanView(APIView):
    """A rail.plan job as GET /api/jobs/{id}/ gives it, but its result without the per-link rows
    (`links`), which can be 100K rows and 20 MB: `result.link_rows` says how many there are, the
    longest link and every part they use; GET .../links/ pages through them. Every role reads."""

    permission_classes = [RolePermission]
    write_roles: set[str] = set()

    @extend_schema(responses=RailPlanJobSerializer)
    def get(self, request, job_id: int):
        job = plan_rows.plan_job(job_id, with_result=False)
        job.result = plan_rows.summary(job)
        return Response(JobSerializer(job, context={"request": request}).data)


class RailPlanLinksView(APIView):
    """One page of a rail.plan's per-link rows, filtered and sorted on the server. Every role reads."""

    permission_classes = [RolePermission]
    write_roles: set[str] = set()

    @extend_schema(
        parameters=[
            OpenApiParameter("stretched", bool, description="Only stretched (true) or unstretched (false) links."),
            OpenApiParameter("part", str, description="Links whose baseline or plan uses this part."),
            OpenApiParameter("q", str, description="Text in the link's name, any case."),
            OpenApiParameter(
                "ordering", str, description=f"One of {', '.join(plan_rows.ORDERINGS)}; '-' first for descending."
            ),
            OpenApiParameter("limit", int, description=f"Rows per page, 1 to {plan_rows.MAX_LIMIT}; 50."),
            OpenApiParameter("offset", int, description="Rows to skip."),
        ],
        responses=RailPlanLinksSerializer,
    )
    def get(self, request, job_id: int):
        job = plan_rows.plan_job(job_id, with_result=False)
        return Response(plan_rows.links_page(job, request.query_params))
