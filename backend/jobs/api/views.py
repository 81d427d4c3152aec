import csv
import io
import json

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from accounts.roles import ADMIN, OPERATOR, ROLES, user_roles
from fabric.api.export import FABRIC_COLUMN
from lightpath.api.export import CsvColumn, CsvExportMixin, percent
from lightpath.api.viewsets import BriefModeMixin
from lightpath.problems import InvalidParams

from .. import services
from ..filtersets import JobFilterSet
from ..models import Job
from ..registry import KINDS
from .results import JobResultSerializer
from .serializers import JobListSerializer, JobLogEntrySerializer, JobLogQuerySerializer, JobSerializer


class JobViewSet(CsvExportMixin, BriefModeMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Background jobs. Who may start one depends on its kind (GET /api/jobs/kinds/);
    a job may be cancelled by whoever started it, an operator or an admin."""

    queryset = Job.objects.select_related("created_by")
    serializer_class = JobSerializer
    filterset_class = JobFilterSet
    ordering_fields = ["id", "kind", "state", "fabric", "created", "started", "finished", "created_by__username"]
    csv_name = "jobs"
    csv_columns = (
        # Keys are the page's columns (`columns=`): "Created" says when and by whom.
        CsvColumn("Job", "id"),
        CsvColumn("Kind", "kind_title", key="kind"),
        FABRIC_COLUMN,
        CsvColumn("State", "state"),
        CsvColumn("Progress", "progress", percent),
        CsvColumn("Message", "message"),
        CsvColumn("Error", "error"),
        CsvColumn("Started by", "created_by", key="created"),
        CsvColumn("Created", "created"),
        CsvColumn("Finished", "finished"),
    )
    write_roles = {"create": set(ROLES), "cancel": set(ROLES)}

    def get_serializer_class(self):
        return JobListSerializer if self.action == "list" else JobSerializer

    def get_queryset(self):
        # Params are never read back (an upload can be tens of MB) and the list omits results:
        # leave those columns in the database instead of reading them on every poll.
        queryset = super().get_queryset()
        if self.action == "log":  # only the job's existence (and the reader's right to it) matters
            return Job.objects.only("id")
        if self.action in ("list", "retrieve"):
            queryset = queryset.defer("params")
        if self.action == "list":
            queryset = queryset.defer("result")
        return queryset

    # Accepted, not created: the job runs later (the schema said 201, the server always answered 202).
    @extend_schema(responses={202: JobSerializer})
    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        kind = KINDS[serializer.validated_data["kind"]]
        roles = user_roles(request.user)
        if ADMIN not in roles and not roles & kind.roles:
            raise PermissionDenied(f"Your role may not start '{kind.name}' jobs.")
        fabric = serializer.validated_data.get("fabric")
        params = serializer.validated_data.get("params") or {}
        if kind.validate is not None:
            try:
                params = kind.validate(params, fabric)
            except InvalidParams as exc:
                return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        job = services.submit(kind.name, user=request.user, fabric=fabric, params=params)
        return Response(self.get_serializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses=JobSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        job = self.get_object()
        roles = user_roles(request.user)
        if job.created_by_id != request.user.pk and not roles & {OPERATOR, ADMIN}:
            raise PermissionDenied("Only the job's creator, an operator or an admin may cancel it.")
        return Response(self.get_serializer(services.cancel(job)).data)

    @extend_schema(parameters=[JobLogQuerySerializer], responses=JobLogEntrySerializer(many=True))
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def log(self, request, pk=None):
        """The job's log, oldest first: what its handler and the job framework wrote while it ran.
        Poll with `after` set to the last id read for the new entries only."""
        query = JobLogQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        job = self.get_object()
        entries = job.log_entries.filter(id__gt=query.validated_data["after"]).order_by("id")
        return Response(JobLogEntrySerializer(entries[: query.validated_data["limit"]], many=True).data)

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=["json", "csv"], description="json (default) or csv"),
            OpenApiParameter("table", str, description="csv: which table of the result (kinds list theirs)"),
        ],
        responses={(200, "application/json"): JobResultSerializer, (200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def result(self, request, pk=None):
        """The result of a succeeded job as a download: JSON, or CSV for kinds that define tables."""
        job = self.get_object()
        kind = KINDS.get(job.kind)
        fmt = request.query_params.get("format", "json")
        tables = kind.csv_tables if kind else {}
        problems = {}
        if fmt not in ("json", "csv"):
            problems["format"] = ["must be json or csv"]
        elif fmt == "csv" and not tables:
            problems["format"] = [f"'{job.kind}' jobs have no CSV result; use format=json"]
        table = request.query_params.get("table") or next(iter(tables), "")
        if fmt == "csv" and tables and table not in tables:
            problems["table"] = [f"must be one of {', '.join(tables)}"]
        if problems:
            raise serializers.ValidationError(problems)
        if job.state != job.State.SUCCEEDED or job.result is None:
            raise NotFound(f"job {job.pk} is {job.state}; only a succeeded job has a result to download")
        stem = f"job-{job.pk}-{job.kind.replace('.', '-')}"
        if fmt == "json":
            response = HttpResponse(json.dumps(job.result), content_type="application/json")
            response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
            return response
        header, rows = tables[table](job.result)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{stem}-{table}.csv"'
        return response

    @extend_schema(
        responses=inline_serializer(
            "JobKind",
            {"name": serializers.CharField(), "title": serializers.CharField(), "description": serializers.CharField(),
             "roles": serializers.ListField(child=serializers.CharField()), "needs_fabric": serializers.BooleanField(),
             "csv_tables": serializers.ListField(child=serializers.CharField())},
            many=True,
        )
    )  # fmt: skip
    @action(detail=False, methods=["get"], pagination_class=None, filterset_class=None)
    def kinds(self, request):
        return Response(
            [
                {
                    "name": k.name,
                    "title": k.title,
                    "description": k.description,
                    "roles": sorted(k.roles),
                    "needs_fabric": k.needs_fabric,
                    "csv_tables": list(k.csv_tables),
                }
                for k in sorted(KINDS.values(), key=lambda k: k.name)
            ]
        )
