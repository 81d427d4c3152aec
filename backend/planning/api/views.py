from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import RolePermission

from ..services import fec


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
