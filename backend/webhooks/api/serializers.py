from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from rest_framework import serializers

from accounts.roles import ADMIN, OPERATOR, user_roles
from lightpath.api.serializers import BriefModelSerializer

from .. import addresses, services
from ..models import DeliveryAttempt, WebhookDelivery, WebhookEndpoint

SECRET_MIN_CHARS = 16
# What a receiver answered and the body sent may hold what only the endpoint's owners should read
# (a receiver's error page, internal names): operators and admins, who manage endpoints.
PAYLOAD_READERS = frozenset({OPERATOR, ADMIN})


def may_read_payloads(context: Mapping[str, Any]) -> bool:
    request = context.get("request")
    return request is not None and bool(user_roles(request.user) & PAYLOAD_READERS)


class WebhookEndpointSerializer(BriefModelSerializer):
    """The secret is write-only: it is never returned, only a hint of its last 4 characters."""

    secret = serializers.CharField(
        write_only=True, required=False, min_length=SECRET_MIN_CHARS, max_length=200, trim_whitespace=False,
        help_text="HMAC-SHA256 key shared with the receiver (at least 16 characters). Write-only; "
        "omitted on create, one is generated; omitted on update, the current one stays.",
    )  # fmt: skip
    secret_hint = serializers.CharField(read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    # Health at a glance (annotated by the view): what waits, what failed for good, the last success.
    pending_deliveries = serializers.IntegerField(read_only=True, default=0)
    failed_deliveries = serializers.IntegerField(read_only=True, default=0)
    last_success_at = serializers.DateTimeField(read_only=True, default=None)

    class Meta:
        model = WebhookEndpoint
        fields = [
            "id", "url", "fabric", "name", "payload_url", "secret", "secret_hint", "enabled", "max_attempts",
            "pending_deliveries", "failed_deliveries", "last_success_at", "created_by", "created", "updated",
        ]  # fmt: skip
        read_only_fields = ["created", "updated"]
        brief_fields = ("id", "url", "fabric", "name", "enabled")

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None and "fabric" in fields:
            fields["fabric"].read_only = True  # an endpoint belongs to its fabric for good
        return fields

    def validate_payload_url(self, value: str) -> str:
        parts = urlsplit(value)
        problems = []
        if parts.scheme not in ("http", "https"):
            problems.append(f"the scheme must be http or https, not {parts.scheme or 'none'!r}")
        if not parts.hostname:
            problems.append("the URL needs a host")
        if parts.username or parts.password:
            problems.append("credentials do not belong in the URL (receivers check the signature instead)")
        if parts.fragment:
            problems.append("a fragment (#...) is never sent; remove it")
        try:
            parts.port  # noqa: B018  (raises on a port beyond 65535)
        except ValueError:
            problems.append("the port must be a number from 1 to 65535")
        if parts.hostname and not problems:
            # Refused here and again before every attempt (webhooks/addresses.py). A name that
            # does not resolve is refused too: it cannot be checked, and nothing could be sent.
            try:
                addresses.checked_addresses(value)
            except (addresses.AddressRefused, addresses.Unresolvable) as error:
                problems.append(str(error))
        if problems:
            raise serializers.ValidationError(problems)
        return value


class WebhookEndpointCreatedSerializer(WebhookEndpointSerializer):
    """Documentation only: POST /api/webhooks/'s answer, which adds the secret the server generated."""

    secret = serializers.CharField(
        required=False, help_text="Only when the request sent none: the generated secret, answered this once."
    )


class DeliveryAttemptSerializer(serializers.ModelSerializer):
    """`response_excerpt` only for operators and admins (omitted for other roles)."""

    class Meta:
        model = DeliveryAttempt
        fields = [
            "number", "started_at", "duration_ms", "status_code", "error", "response_excerpt", "next_retry_at",
        ]  # fmt: skip
        read_only_fields = fields

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not may_read_payloads(self.context):
            data.pop("response_excerpt", None)
        return data


class WebhookDeliverySerializer(BriefModelSerializer):
    fabric = serializers.IntegerField(source="endpoint.fabric_id", read_only=True)
    endpoint_name = serializers.CharField(source="endpoint.name", read_only=True)
    event_type = serializers.CharField(source="event.kind", read_only=True)
    link = serializers.IntegerField(source="event.link_id", read_only=True, allow_null=True)

    class Meta:
        model = WebhookDelivery
        fields = [
            "id", "url", "delivery_id", "fabric", "endpoint", "endpoint_name", "event", "event_type", "link",
            "state", "attempts", "next_attempt_at", "sending_since", "last_status_code", "last_error", "redelivery_of", "created",
            "finished_at",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "delivery_id", "event_type", "state")


class WebhookDeliveryDetailSerializer(WebhookDeliverySerializer):
    """Adds the exact body POSTed and every attempt. `request_body` and each attempt's
    `response_excerpt` only for operators and admins (omitted for other roles)."""

    request_body = serializers.SerializerMethodField()
    attempt_log = DeliveryAttemptSerializer(many=True, read_only=True)

    class Meta(WebhookDeliverySerializer.Meta):
        fields = [*WebhookDeliverySerializer.Meta.fields, "request_body", "attempt_log"]
        read_only_fields = fields

    def get_request_body(self, delivery: WebhookDelivery) -> str:
        return services.request_body(delivery).decode()

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not may_read_payloads(self.context):
            data.pop("request_body", None)
        return data
