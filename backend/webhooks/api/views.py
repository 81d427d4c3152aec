import secrets

from django.db import transaction
from django.db.models import Count, Max, Q
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from accounts.roles import OPERATOR
from audit import services as audit
from lightpath.api.viewsets import BriefModeMixin

from .. import services
from ..filtersets import WebhookDeliveryFilterSet, WebhookEndpointFilterSet
from ..models import WebhookDelivery, WebhookEndpoint
from .serializers import (
    WebhookDeliveryDetailSerializer,
    WebhookDeliverySerializer,
    WebhookEndpointCreatedSerializer,
    WebhookEndpointSerializer,
)

ENDPOINT_WRITERS = {OPERATOR}  # and admins, who may always write


def _audit_snapshot(endpoint: WebhookEndpoint) -> dict:
    """The audit trail shows which secret (its hint) was in use, never the secret."""
    return {**audit.snapshot(endpoint), "secret": endpoint.secret_hint}


@extend_schema_view(
    create=extend_schema(
        description="Creates an endpoint. Without `secret`, one is generated and returned in this "
        "response only (key `secret`); a secret you send is never returned.",
        responses={201: WebhookEndpointCreatedSerializer},
    )
)
class WebhookEndpointViewSet(BriefModeMixin, viewsets.ModelViewSet):
    """Where a fabric's changes of intended link state are POSTed (signed with the endpoint's
    secret). Every role reads (the secret shows only as `secret_hint`); operators and admins
    create, edit and test; admins delete."""

    queryset = WebhookEndpoint.objects.select_related("created_by").annotate(
        pending_deliveries=Count("deliveries", filter=Q(deliveries__state=WebhookDelivery.State.PENDING)),
        failed_deliveries=Count("deliveries", filter=Q(deliveries__state=WebhookDelivery.State.FAILED)),
        last_success_at=Max("deliveries__finished_at", filter=Q(deliveries__state=WebhookDelivery.State.SUCCEEDED)),
    )
    serializer_class = WebhookEndpointSerializer
    filterset_class = WebhookEndpointFilterSet
    ordering_fields = ["name", "created", "fabric"]
    # Explicit: with the delivery counts' GROUP BY the model's ordering (through the fabric's
    # own Meta.ordering) was not reliably applied, and the CLI lists in server order.
    ordering = ["fabric_id", "name", "id"]
    write_roles = {"create": ENDPOINT_WRITERS, "update": ENDPOINT_WRITERS, "test": ENDPOINT_WRITERS}

    def create(self, request, *args, **kwargs):
        data = request.data.copy()
        generated = None
        if not data.get("secret"):
            generated = data["secret"] = secrets.token_urlsafe(32)
        serializer = self.get_serializer(data=data)
        serializer.is_valid(raise_exception=True)
        with transaction.atomic():
            endpoint = serializer.save(created_by=request.user)
            audit.record(request.user, audit.CREATE, endpoint, after=_audit_snapshot(endpoint))
        body = dict(self.get_serializer(self.get_queryset().get(pk=endpoint.pk)).data)
        if generated is not None:
            body["secret"] = generated  # shown once; store it on the receiver now
        return Response(body, status=status.HTTP_201_CREATED)

    @transaction.atomic
    def perform_update(self, serializer):
        before = _audit_snapshot(serializer.instance)
        endpoint = serializer.save()
        audit.record(self.request.user, audit.UPDATE, endpoint, before=before, after=_audit_snapshot(endpoint))

    @transaction.atomic
    def perform_destroy(self, instance):
        audit.record(self.request.user, audit.DELETE, instance, before=_audit_snapshot(instance))
        instance.delete()

    @extend_schema(
        request=None, responses={202: WebhookDeliverySerializer, 400: OpenApiResponse(description="disabled")}
    )
    @action(detail=True, methods=["post"])
    def test(self, request, pk=None):
        """Send a `webhook.test` event to this endpoint; follow it in the delivery log."""
        try:
            delivery = services.send_test_event(self.get_object(), request.user)
        except services.EndpointDisabled as error:
            raise ValidationError({"enabled": [str(error)]}) from error
        return Response(
            WebhookDeliverySerializer(delivery, context=self.get_serializer_context()).data,
            status=status.HTTP_202_ACCEPTED,
        )


class WebhookDeliveryViewSet(BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """The delivery log: every event sent to every endpoint, its state and (in the detail) the
    exact body and each attempt. Read-only for every role; operators and admins redeliver."""

    queryset = WebhookDelivery.objects.select_related("endpoint", "event")
    serializer_class = WebhookDeliverySerializer
    filterset_class = WebhookDeliveryFilterSet
    ordering_fields = ["created", "finished_at", "next_attempt_at", "attempts"]
    write_roles = {"redeliver": ENDPOINT_WRITERS}

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "retrieve":
            queryset = queryset.prefetch_related("attempt_log")
        return queryset

    def get_serializer_class(self):
        return WebhookDeliveryDetailSerializer if self.action == "retrieve" else WebhookDeliverySerializer

    @extend_schema(
        request=None, responses={202: WebhookDeliverySerializer, 400: OpenApiResponse(description="disabled")}
    )
    @action(detail=True, methods=["post"])
    def redeliver(self, request, pk=None):
        """Send this delivery's event to its endpoint again, as a new delivery (new `delivery_id`,
        same `event_id`)."""
        try:
            delivery = services.redeliver(self.get_object())
        except services.EndpointDisabled as error:
            raise ValidationError({"endpoint": [str(error)]}) from error
        return Response(
            WebhookDeliverySerializer(delivery, context=self.get_serializer_context()).data,
            status=status.HTTP_202_ACCEPTED,
        )
