"""The outgoing webhook requests in the OpenAPI document (drf-spectacular's OpenApiWebhook).

OpenAPI 3.0, which the project's schema uses, has no `webhooks` section; `x-webhooks` is the
extension Redoc shows for 3.0 documents, so the postprocessing hook moves them there."""

from drf_spectacular.utils import OpenApiResponse, OpenApiWebhook, extend_schema
from rest_framework import serializers

from fabric.models import Link

from .. import services
from ..models import WebhookEvent


class FabricRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class LinkEndSerializer(serializers.Serializer):
    switch = serializers.CharField()
    port = serializers.CharField()


class LinkRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    a = LinkEndSerializer()
    z = LinkEndSerializer()


class ChangedBySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["user", "system"])
    username = serializers.CharField(allow_null=True)


class EnvelopeSerializer(serializers.Serializer):
    event = serializers.ChoiceField(choices=WebhookEvent.Kind.choices)
    event_id = serializers.IntegerField(
        help_text="Grows in commit order for one link: apply an event only if it is above the last applied."
    )
    delivery_id = serializers.UUIDField(help_text="The same on every retry of this delivery; new on a redelivery.")
    created = serializers.DateTimeField(help_text="When the event was written.")
    fabric = FabricRefSerializer()


class LinkAdminStateChangedSerializer(EnvelopeSerializer):
    link = LinkRefSerializer()
    admin_state = serializers.ChoiceField(choices=Link.AdminState.choices)
    previous_admin_state = serializers.ChoiceField(choices=Link.AdminState.choices)
    override_capacity = serializers.BooleanField(
        help_text="An admin took the link out of service although a ToR falls under its capacity constraint."
    )
    reason = serializers.CharField(allow_blank=True)
    changed_by = ChangedBySerializer()
    changed_at = serializers.DateTimeField()


class LinkOperStateChangedSerializer(EnvelopeSerializer):
    link = LinkRefSerializer()
    oper_state = serializers.ChoiceField(choices=Link.OperState.choices)
    previous_oper_state = serializers.ChoiceField(choices=Link.OperState.choices)
    reason = serializers.CharField(help_text="telemetry: oper_status")
    changed_by = ChangedBySerializer(help_text="Always the system: the state is measured.")
    changed_at = serializers.DateTimeField()


class RiskForecastSerializer(serializers.Serializer):
    """The forecast as derivation stored it (GET /api/links/{id}/forecast/ has it with labels)."""

    computed_at = serializers.DateTimeField()
    crossing_at = serializers.DateTimeField(help_text="When the worst lane's power is forecast to reach its limit.")
    earliest_at = serializers.DateTimeField()
    latest_at = serializers.DateTimeField(allow_null=True, help_text="Null: it may never cross.")
    confidence = serializers.FloatField()
    at_risk = serializers.BooleanField()
    cause = serializers.CharField(
        help_text="decaying_transmitter, contamination, bent_fiber, loose_transceiver, unknown"
    )
    side = serializers.CharField(help_text="The end whose reading crosses: a or z.")
    quantity = serializers.CharField(help_text="rx or tx")
    lane = serializers.IntegerField(help_text="Counted from 0.")
    level_dbm = serializers.FloatField(allow_null=True)
    slope_db_per_day = serializers.FloatField(allow_null=True)
    limit_dbm = serializers.FloatField(allow_null=True)
    limit_provenance = serializers.CharField(allow_null=True)
    cause_side = serializers.CharField(allow_null=True, help_text="The end to act on; null when the cause names none.")


class LinkRiskSerializer(EnvelopeSerializer):
    link = LinkRefSerializer()
    at_risk = serializers.BooleanField(
        help_text="true for link.at_risk and link.risk_changed, false for link.risk_cleared."
    )
    forecast = RiskForecastSerializer(
        allow_null=True,
        help_text="The link's forecast after the change (its `at_risk` is the forecast's own verdict, which a "
        "failed link may still have). Null on link.risk_cleared when the link has no forecast any more.",
    )
    reason = serializers.ChoiceField(
        choices=sorted({reason for reasons in services.RISK_REASONS.values() for reason in reasons}),
        help_text="Why. link.at_risk: `forecast` (the forecast now says at risk) or `no_longer_failed` (a failed "
        "link is back and its forecast still says at risk). link.risk_cleared: `failed` (the link failed: corrupting "
        "or out of service for corruption; its repair ticket owns it), `recovered` (the forecast no longer says at "
        "risk) or `no_forecast` (its optics no longer head for a limit). link.risk_changed: `cause_changed`.",
    )
    changed_by = ChangedBySerializer(help_text="Always the system: derivation's forecast or measured health.")
    changed_at = serializers.DateTimeField(
        help_text="The derivation time the forecast was made at, or when the link failed or came back."
    )


class LinkRiskChangedSerializer(LinkRiskSerializer):
    previous_cause = serializers.CharField(help_text="The probable cause the link was announced at risk with before.")


class WebhookTestSerializer(EnvelopeSerializer):
    message = serializers.CharField()
    requested_by = serializers.CharField(allow_null=True)
    requested_at = serializers.DateTimeField()


HEADERS = (
    "Headers: `X-Lightpath-Event` (the event type), `X-Lightpath-Delivery` (the delivery id), "
    "`X-Lightpath-Timestamp` (Unix seconds of this attempt) and `X-Lightpath-Signature`: `sha256=` and the "
    "hex HMAC-SHA256, keyed with the endpoint's secret, of `<X-Lightpath-Timestamp>.<the exact body>`."
)
RESPONSES = {
    200: OpenApiResponse(description="Any 2xx: delivered."),
    500: OpenApiResponse(description="Connection errors, timeouts, 408, 429 and 5xx are retried with backoff."),
    400: OpenApiResponse(description="Other answers (4xx, 3xx) fail the delivery at once."),
}

link_admin_state_changed = OpenApiWebhook(
    name="link.admin_state_changed",
    decorator=extend_schema(
        summary="A link's intended (admin) state changed",
        description="POSTed to every enabled endpoint of the link's fabric after the change committed. " + HEADERS,
        request=LinkAdminStateChangedSerializer,
        responses=RESPONSES,
    ),
)
link_oper_state_changed = OpenApiWebhook(
    name="link.oper_state_changed",
    decorator=extend_schema(
        summary="A link's measured (operational) state changed",
        description="POSTed to every enabled endpoint of the link's fabric after telemetry's oper_status "
        "changed the link's state (down when either end reports anything but up). " + HEADERS,
        request=LinkOperStateChangedSerializer,
        responses=RESPONSES,
    ),
)


def _risk_webhook(name: str, summary: str, when: str) -> OpenApiWebhook:
    """link.at_risk and link.risk_cleared: one body (LinkRiskSerializer), sent when `when`."""
    return OpenApiWebhook(
        name=name,
        decorator=extend_schema(
            summary=summary,
            description=f"POSTed to every enabled endpoint of the link's fabric when {when}. " + HEADERS,
            request=LinkRiskSerializer,
            responses=RESPONSES,
        ),
    )


link_at_risk = _risk_webhook(
    "link.at_risk",
    "A link became at risk: its optics are forecast to cross their limit within the horizon",
    "derivation's forecast flips the link to at risk (docs/telemetry.md, 'Forecasts: optics at risk')",
)
link_risk_cleared = _risk_webhook(
    "link.risk_cleared",
    "A link is no longer at risk",
    "a link announced at risk no longer is, for any reason: it failed (corrupting, or out of service for "
    "corruption), its forecast recovered, or it has no forecast any more (`reason` says which)",
)
link_risk_changed = OpenApiWebhook(
    name="link.risk_changed",
    decorator=extend_schema(
        summary="A link at risk has another probable cause",
        description="POSTed to every enabled endpoint of the link's fabric when derivation's forecast of a link "
        "that stays at risk names another probable cause (so another recommended action) than the one announced "
        "with link.at_risk or the last link.risk_changed. " + HEADERS,
        request=LinkRiskChangedSerializer,
        responses=RESPONSES,
    ),
)
webhook_test = OpenApiWebhook(
    name="webhook.test",
    decorator=extend_schema(
        summary="A test event (POST /api/webhooks/{id}/test/)",
        description="POSTed to the one endpoint tested. " + HEADERS,
        request=WebhookTestSerializer,
        responses=RESPONSES,
    ),
)


def webhooks_as_extension(result, generator, request, public):
    """Postprocessing hook: OpenAPI 3.0 has no root `webhooks`; publish them as `x-webhooks`."""
    if str(result.get("openapi", "")).startswith("3.0") and "webhooks" in result:
        result["x-webhooks"] = result.pop("webhooks")
    return result


# Fields only operators and admins receive (api/serializers.py, PAYLOAD_READERS): read-only fields
# are "required" in drf-spectacular's responses; these are omitted for other roles.
ROLE_RESTRICTED_FIELDS = {"DeliveryAttempt": "response_excerpt", "WebhookDeliveryDetail": "request_body"}


def role_restricted_fields_optional(result, generator, request, public):
    """Postprocessing hook: the role-restricted fields are optional, and say who gets them."""
    schemas = result.get("components", {}).get("schemas", {})
    for component, field in ROLE_RESTRICTED_FIELDS.items():
        schema = schemas.get(component)
        if schema is None:
            continue
        if field in schema.get("required", []):
            schema["required"].remove(field)
        prop = schema.get("properties", {}).get(field)
        if prop is not None:
            prop["description"] = "Only for operators and admins; omitted for other roles."
    return result
