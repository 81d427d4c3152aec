import datetime as dt

from django.conf import settings
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import COLLECTOR, OPERATOR, TECHNICIAN
from audit import services as audit
from fabric.models import Fabric, Link
from lightpath.api.parsers import raw_parser
from lightpath.api.viewsets import AuditedModelViewSet, BriefModeMixin

from .. import formats
from ..filtersets import CorruptionEventFilterSet, LinkForecastFilterSet, PowerThresholdFilterSet
from ..models import CorruptionEvent, PowerThreshold
from ..services import forecasts, series
from ..services import ingest as ingest_service
from .serializers import (
    CorruptionEventSerializer,
    IngestResultSerializer,
    LinkForecastRowSerializer,
    LinkTelemetrySerializer,
    PowerThresholdSerializer,
)


def _fabric(value: str | None) -> Fabric:
    found = _find_fabric(value)
    if isinstance(found, str):
        raise serializers.ValidationError({"fabric": [found]})
    return found


def _find_fabric(value: str | None) -> Fabric | str:
    """The fabric named (or numbered) `value`, or what is wrong with it."""
    if not value:
        return "name the fabric: ?fabric=NAME (or its id)"
    fabric = Fabric.objects.filter(name=value).first()
    if fabric is None and value.isdigit():
        fabric = Fabric.objects.filter(pk=int(value)).first()
    return fabric if fabric is not None else f"no fabric named {value!r}"


def _time(request, name: str, default: dt.datetime) -> dt.datetime:
    text = request.query_params.get(name)
    if not text:
        return default
    value = parse_datetime(text.replace(" ", "+"))  # a '+' in a query string arrives as a space
    if value is None or value.tzinfo is None:
        raise serializers.ValidationError({name: [f"{text!r} is not an ISO 8601 time with a UTC offset"]})
    return value


class TelemetryIngestView(APIView):
    """Ingest one batch of samples (docs/telemetry.md): all of them, or none and every error."""

    parser_classes = [raw_parser(media_type) for media_type in formats.MEDIA_TYPES.values()]
    write_roles = {OPERATOR, COLLECTOR}

    @extend_schema(
        request=dict.fromkeys(formats.MEDIA_TYPES.values(), OpenApiTypes.BINARY),
        parameters=[
            OpenApiParameter("fabric", str, required=True, description="fabric name (or id)"),
            OpenApiParameter("time", str, description="time of Prometheus samples without a timestamp"),
        ],
        responses={200: IngestResultSerializer, 400: OpenApiTypes.OBJECT},
    )
    def post(self, request):
        default_time = _time(request, "time", timezone.now())
        try:
            parsed = formats.parse(request.content_type, request.data, default_time=default_time)
        except formats.FormatError as exc:
            return Response({"detail": str(exc), "errors": [{"reason": str(exc)}]}, status=status.HTTP_400_BAD_REQUEST)
        query_fabric = request.query_params.get("fabric")
        if parsed.fabric and query_fabric and parsed.fabric != query_fabric:
            raise serializers.ValidationError(
                {"fabric": [f"the body names fabric {parsed.fabric!r} but the query names {query_fabric!r}"]}
            )
        fabric = _fabric(query_fabric or parsed.fabric)
        try:
            result = ingest_service.ingest(
                fabric,
                parsed.samples,
                where=parsed.where,
                parse_errors=parsed.errors,
                skipped_updates=parsed.skipped,
                skip_other_ports=formats.format_of(request.content_type) in ("openconfig", "prometheus"),
            )
        except ingest_service.TelemetryRejected as exc:
            return Response(
                {"detail": f"{len(exc.errors)} problem(s); nothing was written.", "errors": exc.errors},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response({"fabric": fabric.name, **result.as_dict()})


class RemoteWriteView(APIView):
    """Prometheus remote write 1.0 (docs/collectors.md): a snappy-compressed protobuf
    WriteRequest, read with the text format's metric mapping and stored by the same ingest. 204 when stored; a client mistake is a 400
    listing every problem (Prometheus drops a 4xx batch; it would retry a 5xx for ever)."""

    parser_classes = [raw_parser(formats.REMOTE_WRITE_MEDIA_TYPE)]
    write_roles = {COLLECTOR}

    @extend_schema(
        request={formats.REMOTE_WRITE_MEDIA_TYPE: OpenApiTypes.BINARY},
        parameters=[OpenApiParameter("fabric", str, required=True, description="fabric name (or id)")],
        responses={204: None, 400: OpenApiTypes.OBJECT, 415: OpenApiTypes.OBJECT},
    )
    def post(self, request):
        if "io.prometheus.write.v2" in request.content_type:  # a 2.0 sender falls back to 1.0 on a 415
            return Response(
                {"detail": "only remote write 1.0 (prometheus.WriteRequest) is accepted"},
                status=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
            )
        problems: list[dict] = []
        fabric = _find_fabric(request.query_params.get("fabric"))
        if isinstance(fabric, str):
            problems.append({"field": "fabric", "reason": fabric})
        encoding = request.headers.get("Content-Encoding", "snappy").strip().lower()
        if encoding != "snappy":
            problems.append({"field": None, "reason": f"Content-Encoding {encoding!r}: remote write bodies are snappy"})
        parsed = None
        if isinstance(request.data, bytes):
            try:
                parsed = formats.parse_remote_write(request.data, max_bytes=settings.LIGHTPATH_MAX_BODY_BYTES)
            except formats.FormatError as exc:
                problems.append({"field": None, "reason": str(exc)})
        else:
            problems.append(
                {"field": None, "reason": f"no body: send a WriteRequest as {formats.REMOTE_WRITE_MEDIA_TYPE}"}
            )
        if problems or parsed is None or isinstance(fabric, str):
            return _rejected(problems)
        try:
            ingest_service.ingest(
                fabric,
                parsed.samples,
                where=parsed.where,
                parse_errors=parsed.errors,
                skipped_updates=parsed.skipped,
                skip_other_ports=True,  # a scrape carries every port of a switch
            )
        except ingest_service.TelemetryRejected as exc:
            return _rejected(exc.errors)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _rejected(errors: list[dict]) -> Response:
    return Response(
        {"detail": f"{len(errors)} problem(s); nothing was written.", "errors": errors},
        status=status.HTTP_400_BAD_REQUEST,
    )


class LinkTelemetryView(APIView):
    """A link's telemetry over a range, for charts; `status` gives the newest readings and
    `signatures` the corruption-versus-congestion statistics of each direction over the range."""

    write_roles: set[str] = set()

    @extend_schema(
        parameters=[
            OpenApiParameter("from", str, description="ISO 8601 start (default: 24 hours before 'to')"),
            OpenApiParameter("to", str, description="ISO 8601 end (default: now)"),
            OpenApiParameter("resolution", str, enum=list(series.RESOLUTIONS), description="raw, hour or auto"),
        ],
        responses=LinkTelemetrySerializer,
    )
    def get(self, request, pk: int):
        link = get_object_or_404(Link.objects.select_related("fabric"), pk=pk)
        end = _time(request, "to", timezone.now())
        start = _time(request, "from", end - dt.timedelta(hours=24))
        try:
            data = series.link_telemetry(link, start, end, request.query_params.get("resolution", "auto"))
        except series.RangeError as exc:
            raise serializers.ValidationError({"range": [str(exc)]}) from None
        return Response(data)


class CorruptionEventViewSet(BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """Episodes of corruption per link direction, opened and ended by telemetry ingest."""

    queryset = CorruptionEvent.objects.select_related("link__a_switch", "link__z_switch")
    serializer_class = CorruptionEventSerializer
    filterset_class = CorruptionEventFilterSet
    ordering_fields = ["first_seen", "rate", "peak_rate", "last_seen"]


class LinkForecastViewSet(viewsets.ReadOnlyModelViewSet):
    """Optics forecasts (docs/telemetry.md, "Forecasts: optics at risk"), soonest crossing first:
    each row is GET /api/links/{id}/forecast/'s `forecast` with the link and both its ends, so the
    At risk page and `lightpath links at-risk` read a page in one request. Written by derivation;
    the detail is keyed by the link's id."""

    queryset = forecasts.rows()
    serializer_class = LinkForecastRowSerializer
    filterset_class = LinkForecastFilterSet
    ordering_fields = ["crossing_at", "confidence"]
    ordering = ["crossing_at", "link"]
    write_roles: set[str] = set()

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        ordering = queryset.query.order_by
        # ?ordering=-confidence: forecasts as sure sort soonest first, then by link, page after page.
        named = {str(key).lstrip("-") for key in ordering}
        return queryset.order_by(*ordering, *(key for key in ("crossing_at", "link") if key not in named))


class PowerThresholdViewSet(AuditedModelViewSet):
    """Rx/Tx limits per link end: device-reported rows (read-only) and manual overrides."""

    queryset = PowerThreshold.objects.all()
    serializer_class = PowerThresholdSerializer
    filterset_class = PowerThresholdFilterSet
    write_roles = {"create": {OPERATOR, TECHNICIAN}, "update": {OPERATOR, TECHNICIAN}, "destroy": {OPERATOR}}

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action in ("update", "partial_update", "destroy"):
            return queryset.filter(source=PowerThreshold.Source.MANUAL)  # device rows are the device's
        return queryset

    @transaction.atomic
    def perform_create(self, serializer):
        saved = serializer.save(source=PowerThreshold.Source.MANUAL)
        created = saved if isinstance(saved, list) else [saved]  # a posted list is a bulk create
        for instance in created:
            audit.record(self.request.user, audit.CREATE, instance)
        ingest_service.reclassify([instance.link_id for instance in created])

    def save_update(self, serializer):
        instance = serializer.save()
        ingest_service.reclassify([instance.link_id])
        return instance

    def delete_instance(self, instance) -> None:
        link_id = instance.link_id
        instance.delete()
        ingest_service.reclassify([link_id])
