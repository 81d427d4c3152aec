"""Synchronous calculators of ShareBackup and Larry. They store nothing, so every human role may
call them (POST is only how a document is sent); the collector machine account may not."""

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import ADMIN, OPERATOR, PLANNER, TECHNICIAN, VIEWER
from lightpath.problems import InvalidParams

from ..services import costs, larry, sharebackup
from .serializers import CheckAnswerSerializer, CostsAnswerSerializer, SizeAnswerSerializer

CALCULATOR_ROLES = {VIEWER, TECHNICIAN, PLANNER, OPERATOR, ADMIN}


class CalculatorView(APIView):
    """POST a JSON document, get the answer; 400 {"errors": [...]} lists every problem."""

    write_roles = CALCULATOR_ROLES
    validate: Callable[[Any], dict[str, Any]]
    compute: Callable[[dict[str, Any]], dict[str, Any]]

    def post(self, request):
        try:
            params = type(self).validate(request.data)
            return Response(type(self).compute(params))
        except InvalidParams as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        except ValueError as exc:  # the engine refused a combination the checks let through
            error = {"section": "params", "field": "", "message": str(exc)}
            return Response({"errors": [error]}, status=status.HTTP_400_BAD_REQUEST)


class ShareBackupSizeView(CalculatorView):
    """Backup-pool sizing: the smallest backups per failure group for a target risk, from given
    MTBF/MTTR or a fabric's repair tickets, with a seeded Monte Carlo cross-check."""

    validate = staticmethod(sharebackup.validate_size_params)
    compute = staticmethod(sharebackup.size)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: SizeAnswerSerializer, 400: OpenApiTypes.OBJECT})
    def post(self, request):
        return super().post(request)


class LarryCheckView(CalculatorView):
    """Whether per-rack circuit uplinks fit a rack set's cabling (integral max flow); when they do
    not, the min cut that proves it. Infeasible is an answer (200, feasible false), not an error.
    The rack set is a document or {"fabric", "circuit_switches"}: then it is built from the stored
    fabric, cables out of service excluded, and the answer's inputs say which and why."""

    validate = staticmethod(larry.validate_check)
    compute = staticmethod(larry.check)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: CheckAnswerSerializer, 400: OpenApiTypes.OBJECT})
    def post(self, request):
        return super().post(request)


class ReconfigCostsView(CalculatorView):
    """Counts and normalised cost of static oversubscription, Larry and ShareBackup under a price sheet."""

    validate = staticmethod(costs.validate)
    compute = staticmethod(costs.compare)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: CostsAnswerSerializer, 400: OpenApiTypes.OBJECT})
    def post(self, request):
        return super().post(request)
