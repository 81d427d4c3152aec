"""Outgoing webhooks: where a fabric's changes of intended link state are POSTed, what was
sent, and every attempt (a transactional outbox: events and deliveries are written in the
transaction of the change itself; workers send them after it commits)."""

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from fabric.models import Fabric


class WebhookEndpoint(models.Model):
    """A receiver (a controller that applies intended link state) of one fabric's events."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="webhook_endpoints")
    name = models.CharField(max_length=100)
    payload_url = models.URLField(max_length=500)
    # HMAC-SHA256 key shared with the receiver. Stored as is (signing needs it), never returned by the API.
    secret = models.CharField(max_length=200)
    enabled = models.BooleanField(default=True)
    max_attempts = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["fabric", "name", "id"]
        constraints = [models.UniqueConstraint(fields=["fabric", "name"], name="webhook_endpoint_unique_name")]
        indexes = [models.Index(fields=["fabric", "enabled"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.payload_url})"

    @property
    def secret_hint(self) -> str:
        return f"…{self.secret[-4:]}" if self.secret else ""


class WebhookEvent(models.Model):
    """One thing to tell a fabric's receivers. Its id is the event's sequence number: for one
    link, ids grow in commit order (the change locks the link row before the event is written)."""

    class Kind(models.TextChoices):
        LINK_ADMIN_STATE = "link.admin_state_changed"
        LINK_OPER_STATE = "link.oper_state_changed"
        LINK_AT_RISK = "link.at_risk"
        LINK_RISK_CLEARED = "link.risk_cleared"
        LINK_RISK_CHANGED = "link.risk_changed"
        TEST = "webhook.test"

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40, choices=Kind.choices)
    # No foreign key: the delivery log outlives a deleted link (the payload names its ends).
    link_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    payload = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"


class WebhookDelivery(models.Model):
    """One event to one endpoint, retried with backoff until it succeeds or fails for good."""

    class State(models.TextChoices):
        PENDING = "pending"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    delivery_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    event = models.ForeignKey(WebhookEvent, on_delete=models.CASCADE, related_name="deliveries")
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    redelivery_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Pending: when the next attempt is due (while one runs, when its lease expires). Null when finished.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # When the attempt now running started (null between attempts): the delivery log shows
    # "Sending" rather than the lease's expiry as if it were a scheduled retry.
    sending_since = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["state", "next_attempt_at"]),
            models.Index(fields=["finished_at"]),
        ]

    def __str__(self) -> str:
        return f"delivery {self.delivery_id} ({self.state})"


class DeliveryAttempt(models.Model):
    """One POST (or the decision not to send one), as the delivery log shows it."""

    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    duration_ms = models.FloatField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    response_excerpt = models.TextField(blank=True)
    next_retry_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["delivery", "number"]
        constraints = [models.UniqueConstraint(fields=["delivery", "number"], name="delivery_attempt_unique_number")]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}"
