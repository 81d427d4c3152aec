"""Outgoing webhooks of intended link state (issue #5): Lightpath does not log into switches; it
tells a fabric's controllers every change of a link's admin state and they apply it.

Publishing is a transactional outbox. The capacity guard (`fabric.services.link_state`) calls
`link_admin_state_changed` (and `publish_oper_changes` for measured state) inside the change's
transaction: an event row and one delivery row
per enabled endpoint of the fabric are written there, and the delivery tasks are enqueued only
once it commits (nothing is sent for a rolled-back change, and no HTTP happens in a request).
Bulk changes inside `batched_link_changes()` cost four queries in all, whatever their size.

Delivering (`attempt_delivery`, run by the `webhooks.deliver` task): claim the delivery with a
lease, POST the signed body, log the attempt, then finish it or schedule the next attempt with
exponential backoff. `requeue_overdue` (beat) re-enqueues deliveries whose task was lost.
"""

import contextlib
import contextvars
import hashlib
import hmac
import json
import logging
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from fabric.models import Link
from lightpath import dispatch
from telemetry.models import LinkForecast

from . import addresses
from .models import DeliveryAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent

logger = logging.getLogger(__name__)

USER_AGENT = "Lightpath-Webhooks/1"
SIGNATURE_HEADER = "X-Lightpath-Signature"
TIMESTAMP_HEADER = "X-Lightpath-Timestamp"
EVENT_HEADER = "X-Lightpath-Event"
DELIVERY_HEADER = "X-Lightpath-Delivery"
RESPONSE_EXCERPT_CHARS = 500
# A claimed attempt may run this much longer than the request timeout before the delivery
# counts as abandoned (its worker died) and may be claimed again.
LEASE_MARGIN_S = 30


class EndpointDisabled(Exception):
    """A manual send (test, redeliver) to an endpoint that is switched off."""


def config() -> dict[str, Any]:
    return settings.WEBHOOKS


# --- publishing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LinkStateChange:
    link_id: int
    fabric_id: int
    previous_state: str
    admin_state: str
    reason: str
    changed_by: str | None  # username; None for the system (CorrOpt, the optimizer, telemetry)
    changed_at: datetime
    override: bool = False  # an admin took it out of service although a ToR falls under its constraint
    kind: str = WebhookEvent.Kind.LINK_ADMIN_STATE
    forecast: dict[str, Any] | None = None  # a risk event's: the forecast that flipped it


RISK_KINDS = (WebhookEvent.Kind.LINK_AT_RISK, WebhookEvent.Kind.LINK_RISK_CLEARED, WebhookEvent.Kind.LINK_RISK_CHANGED)


_batch: contextvars.ContextVar[list[LinkStateChange] | None] = contextvars.ContextVar("webhook_batch", default=None)


def link_admin_state_changed(link: Link, previous_state: str, *, override: bool = False) -> None:
    """Called by the capacity guard (fabric.services.link_state), in its transaction, after a
    link's admin state changed."""
    user = link.admin_changed_by
    _publish(
        LinkStateChange(
            link_id=link.pk,
            fabric_id=link.fabric_id,
            previous_state=previous_state,
            admin_state=link.admin_state,
            reason=link.admin_reason,
            changed_by=user.get_username() if user is not None else None,
            changed_at=link.admin_changed_at or timezone.now(),
            override=override,
        )
    )


def publish_oper_changes(changes: list[tuple[Link, str]], changed_at: datetime) -> None:
    """Called by the capacity guard after telemetry changed links' operational state: (link,
    previous oper state) pairs, measured by the system."""
    with batched_link_changes():
        for link, previous in changes:
            _publish(
                LinkStateChange(
                    link_id=link.pk,
                    fabric_id=link.fabric_id,
                    previous_state=previous,
                    admin_state=link.oper_state,
                    reason="telemetry: oper_status",
                    changed_by=None,
                    changed_at=changed_at,
                    kind=WebhookEvent.Kind.LINK_OPER_STATE,
                )
            )


# What a risk event's `reason` says (docs/telemetry.md, "Webhooks of links at risk"). A link is at
# risk when its forecast says so and it has not failed (telemetry.services.forecasts.at_risk_q);
# subscribers hear every change of that, whichever side of it moved.
RISK_FORECAST = "forecast"  # link.at_risk: the forecast now says at risk
RISK_NO_LONGER_FAILED = "no_longer_failed"  # link.at_risk: a failed link is back and its forecast still says at risk
RISK_FAILED = "failed"  # link.risk_cleared: the link failed (corrupting, or out of service for corruption)
RISK_RECOVERED = "recovered"  # link.risk_cleared: the forecast no longer says at risk
RISK_NO_FORECAST = "no_forecast"  # link.risk_cleared: the optics no longer head for a limit at all
RISK_CAUSE_CHANGED = "cause_changed"  # link.risk_changed: still at risk, another probable cause
RISK_REASONS = {
    WebhookEvent.Kind.LINK_AT_RISK: (RISK_FORECAST, RISK_NO_LONGER_FAILED),
    WebhookEvent.Kind.LINK_RISK_CLEARED: (RISK_FAILED, RISK_RECOVERED, RISK_NO_FORECAST),
    WebhookEvent.Kind.LINK_RISK_CHANGED: (RISK_CAUSE_CHANGED,),
}
# A stored forecast's fields as a risk event carries them (api/schema.py, RiskForecastSerializer).
FORECAST_FIELDS = (
    "computed_at", "crossing_at", "earliest_at", "latest_at", "confidence", "at_risk", "cause", "side",
    "quantity", "lane", "level_dbm", "slope_db_per_day", "limit_dbm", "limit_provenance", "cause_side",
)  # fmt: skip


@dataclass(frozen=True)
class RiskEvent:
    link_id: int
    kind: str  # one of RISK_KINDS
    reason: str  # one of RISK_REASONS[kind]
    forecast: dict[str, Any] | None  # the forecast stored after the change; None when the link has none
    previous_cause: str | None = None  # link.risk_changed: the cause announced before


def forecast_payload(values: dict[str, Any]) -> dict[str, Any]:
    """A forecast's FORECAST_FIELDS from `values` (a stored row or one about to be), times as ISO text."""
    return {
        name: value.isoformat() if isinstance(value, datetime) else value
        for name, value in ((name, values[name]) for name in FORECAST_FIELDS)
    }


def publish_risk_events(fabric_id: int, events: list[RiskEvent], at: datetime) -> None:
    """Called in the transaction that changed what makes links at risk: derivation's forecasts
    (telemetry.services.forecasts.write) and a link failing or coming back (`link_failures_changed`).
    `link.at_risk` and `link.risk_changed` carry the forecast; `link.risk_cleared` the forecast still
    stored, or null when the link has none any more."""
    with batched_link_changes():
        for event in events:
            at_risk = event.kind != WebhookEvent.Kind.LINK_RISK_CLEARED
            _publish(
                LinkStateChange(
                    link_id=event.link_id,
                    fabric_id=fabric_id,
                    previous_state=event.previous_cause or "",
                    admin_state="at_risk" if at_risk else "not_at_risk",
                    reason=event.reason,
                    changed_by=None,
                    changed_at=at,
                    kind=event.kind,
                    forecast=event.forecast,
                )
            )


def link_failures_changed(changes: Iterable[tuple[int, int, bool]], at: datetime) -> None:
    """Called by the capacity guard (fabric.services.link_state) when links failed or stopped being
    failed: (link id, fabric id, failed now). A link whose stored forecast says at risk is at risk
    only while it has not failed, so it gets `link.risk_cleared` (reason "failed") when it fails and
    `link.at_risk` (reason "no_longer_failed") when it is back. One query; none without changes."""
    failed_now = {link_id: (fabric_id, failed) for link_id, fabric_id, failed in changes}
    if not failed_now:
        return
    by_fabric: dict[int, list[RiskEvent]] = defaultdict(list)
    for values in LinkForecast.objects.filter(link_id__in=failed_now, at_risk=True).values("link_id", *FORECAST_FIELDS):
        fabric_id, failed = failed_now[values["link_id"]]
        by_fabric[fabric_id].append(
            RiskEvent(
                link_id=values["link_id"],
                kind=WebhookEvent.Kind.LINK_RISK_CLEARED if failed else WebhookEvent.Kind.LINK_AT_RISK,
                reason=RISK_FAILED if failed else RISK_NO_LONGER_FAILED,
                forecast=forecast_payload(values),
            )
        )
    for fabric_id, events in by_fabric.items():
        publish_risk_events(fabric_id, sorted(events, key=lambda event: event.link_id), at)


def _publish(change: LinkStateChange) -> None:
    pending = _batch.get()
    if pending is not None:
        pending.append(change)
    else:
        publish_link_changes([change])


@contextmanager
def batched_link_changes() -> Iterator[None]:
    """Collect the link changes made inside the block and write their events and deliveries
    with a few set-based statements when it ends. Use it inside the transaction that makes the
    changes (an optimizer disabling many links); nested blocks join the outer one.

    If the block raises, the changes made so far are still written: a caller that catches the
    error may commit them, and must not commit them unpublished. (If the transaction is broken,
    that write fails quietly and the original error goes on.)"""
    if _batch.get() is not None:
        yield
        return
    changes: list[LinkStateChange] = []
    token = _batch.set(changes)
    try:
        yield
    except BaseException:
        with contextlib.suppress(DatabaseError, TransactionManagementError):
            publish_link_changes(changes)
        raise
    finally:
        _batch.reset(token)
    publish_link_changes(changes)


def publish_link_changes(changes: list[LinkStateChange]) -> list[int]:
    """Outbox rows for these changes: an event per change of a fabric that has enabled
    endpoints, a delivery per event and endpoint. Returns the delivery ids, which are enqueued
    when the transaction commits. One query when no endpoint listens, four otherwise."""
    if not changes:
        return []
    endpoints: dict[int, list[int]] = defaultdict(list)
    for endpoint_id, fabric_id in WebhookEndpoint.objects.filter(
        fabric_id__in={change.fabric_id for change in changes}, enabled=True
    ).values_list("id", "fabric_id"):
        endpoints[fabric_id].append(endpoint_id)
    heard = [change for change in changes if endpoints[change.fabric_id]]
    if not heard:
        return []
    ends = {
        row[0]: row[1:]
        for row in Link.objects.filter(pk__in={change.link_id for change in heard}).values_list(
            "id", "fabric__name", "a_switch__name", "a_port", "z_switch__name", "z_port"
        )
    }
    heard = [change for change in heard if change.link_id in ends]  # a link deleted later in the batch
    events = WebhookEvent.objects.bulk_create(
        [
            WebhookEvent(
                fabric_id=change.fabric_id,
                kind=change.kind,
                link_id=change.link_id,
                payload=_link_payload(change, *ends[change.link_id]),
            )
            for change in heard
        ]
    )
    deliveries = WebhookDelivery.objects.bulk_create(
        [
            WebhookDelivery(event=event, endpoint_id=endpoint_id, next_attempt_at=event.created)
            for event in events
            for endpoint_id in endpoints[event.fabric_id]
        ]
    )
    delivery_ids = [delivery.pk for delivery in deliveries]
    enqueue_on_commit(delivery_ids)
    return delivery_ids


def _link_payload(
    change: LinkStateChange, fabric_name: str, a_switch: str, a_port: str, z_switch: str, z_port: str
) -> dict[str, Any]:
    state = (
        {"oper_state": change.admin_state, "previous_oper_state": change.previous_state}
        if change.kind == WebhookEvent.Kind.LINK_OPER_STATE
        else _risk_payload(change)
        if change.kind in RISK_KINDS
        else {
            "admin_state": change.admin_state,
            "previous_admin_state": change.previous_state,
            "override_capacity": change.override,
        }
    )
    return {
        "fabric": {"id": change.fabric_id, "name": fabric_name},
        "link": {
            "id": change.link_id,
            "a": {"switch": a_switch, "port": a_port},
            "z": {"switch": z_switch, "port": z_port},
        },
        **state,
        "reason": change.reason,
        "changed_by": (
            {"kind": "user", "username": change.changed_by}
            if change.changed_by is not None
            else {"kind": "system", "username": None}
        ),
        "changed_at": change.changed_at.isoformat(),
    }


def _risk_payload(change: LinkStateChange) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "at_risk": change.kind != WebhookEvent.Kind.LINK_RISK_CLEARED,
        "forecast": change.forecast,
    }
    if change.kind == WebhookEvent.Kind.LINK_RISK_CHANGED:
        payload["previous_cause"] = change.previous_state
    return payload


def send_test_event(endpoint: WebhookEndpoint, user) -> WebhookDelivery:
    """A `webhook.test` event to this endpoint only, so its owner can check the receiver."""
    if not endpoint.enabled:
        raise EndpointDisabled("the endpoint is disabled; enable it to send a test event")
    with transaction.atomic():
        now = timezone.now()
        event = WebhookEvent.objects.create(
            fabric_id=endpoint.fabric_id,
            kind=WebhookEvent.Kind.TEST,
            payload={
                "fabric": {"id": endpoint.fabric_id, "name": endpoint.fabric.name},
                "message": f"Test event for webhook endpoint {endpoint.name!r}",
                "requested_by": user.get_username() if user is not None and user.is_authenticated else None,
                "requested_at": now.isoformat(),
            },
        )
        delivery = WebhookDelivery.objects.create(event=event, endpoint=endpoint, next_attempt_at=now)
        enqueue_on_commit([delivery.pk])
    return delivery


def redeliver(delivery: WebhookDelivery) -> WebhookDelivery:
    """Send a delivery's event to its endpoint again, as a new delivery (new delivery id, same
    event id, so a receiver that already applied it can tell)."""
    if not delivery.endpoint.enabled:
        raise EndpointDisabled("the endpoint is disabled; enable it to redeliver")
    with transaction.atomic():
        again = WebhookDelivery.objects.create(
            event_id=delivery.event_id,
            endpoint_id=delivery.endpoint_id,
            redelivery_of=delivery,
            next_attempt_at=timezone.now(),
        )
        enqueue_on_commit([again.pk])
    return again


def enqueue_on_commit(delivery_ids: list[int]) -> None:
    if delivery_ids:
        transaction.on_commit(lambda: enqueue(delivery_ids))


def enqueue(delivery_ids: Iterable[int], countdown: float = 0) -> int:
    """One `webhooks.deliver` task per delivery. If the broker is unreachable the change stays
    committed and its deliveries pending: `requeue_overdue` sends them later. Returns how many
    were enqueued."""
    sent = 0
    for delivery_id in delivery_ids:
        if not dispatch.send("webhooks.deliver", [delivery_id], queue=config()["queue"], countdown=countdown):
            break  # the broker is down; requeue_overdue sends the rest later
        sent += 1
    return sent


# --- delivering -----------------------------------------------------------------------------


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """Hex HMAC-SHA256 of `<timestamp>.<body>` keyed with the endpoint's secret."""
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def request_body(delivery: WebhookDelivery) -> bytes:
    """The exact bytes POSTed (the same on every attempt of a delivery)."""
    event = delivery.event
    body = {
        "event": event.kind,
        "event_id": event.pk,
        "delivery_id": str(delivery.delivery_id),
        "created": event.created.isoformat(),
        **event.payload,
    }
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode()


def request_headers(delivery: WebhookDelivery, body: bytes, timestamp: int) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: delivery.event.kind,
        DELIVERY_HEADER: str(delivery.delivery_id),
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: f"sha256={signature(delivery.endpoint.secret, timestamp, body)}",
    }


def backoff_s(attempt: int, retry_after: float | None = None) -> float:
    """Wait before attempt `attempt + 1`: base · 2^(attempt-1), capped; a receiver's
    Retry-After (429, 503) lengthens it up to the cap."""
    cfg = config()
    delay = min(cfg["backoff_base_s"] * 2 ** (attempt - 1), cfg["backoff_max_s"])
    if retry_after is not None:
        delay = max(delay, min(retry_after, cfg["backoff_max_s"]))
    return delay


@dataclass(frozen=True)
class AttemptOutcome:
    delivery_id: int
    number: int
    state: str
    status_code: int | None
    error: str
    retry_in_s: float | None


def attempt_delivery(delivery_id: int) -> AttemptOutcome | None:
    """Make the next attempt of a pending delivery that is due. None when there is nothing to
    do: it finished, it is not due yet, or another worker holds it (a duplicate task)."""
    cfg = config()
    now = timezone.now()
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_id, state=WebhookDelivery.State.PENDING, next_attempt_at__lte=now + timedelta(seconds=1)
    ).update(
        next_attempt_at=now + timedelta(seconds=cfg["timeout_s"] + LEASE_MARGIN_S),
        sending_since=now,
        attempts=F("attempts") + 1,
    )
    if not claimed:
        return None
    delivery = WebhookDelivery.objects.select_related("endpoint", "event").filter(pk=delivery_id).first()
    if delivery is None:
        return None  # its endpoint was deleted meanwhile
    endpoint = delivery.endpoint
    number = delivery.attempts
    if number > 1:
        _log_lost_attempts(delivery, number)
    if not endpoint.enabled:
        return _record(delivery, number, now, 0.0, None, "the endpoint is disabled; not sent", "", final=True)

    body = request_body(delivery)
    headers = request_headers(delivery, body, int(time.time()))
    status_code: int | None = None
    error = excerpt = ""
    retry_after: float | None = None
    started = time.perf_counter()
    try:
        # Checked again now (the endpoint may predate the rule, its name may resolve elsewhere
        # today) and sent to the checked address itself: no second DNS answer is used.
        target = addresses.pinned_request(endpoint.payload_url)
    except addresses.AddressRefused as refused:
        # Not retried: the same address would be refused again (an address is not a hiccup).
        return _record(delivery, number, now, 0.0, None, f"not sent: {refused}", "", final=True)
    except addresses.Unresolvable as unresolvable:
        error = str(unresolvable)  # retried: DNS may answer later
    else:
        try:
            with (
                httpx.Client(timeout=cfg["timeout_s"], follow_redirects=False) as client,
                client.stream(
                    "POST",
                    target.url,
                    content=body,
                    headers={**headers, "Host": target.host_header},
                    extensions=target.extensions,
                ) as response,
            ):
                status_code = response.status_code
                retry_after = _retry_after(response)
                excerpt = _excerpt(response, cfg["timeout_s"])
        except httpx.TimeoutException:
            error = f"timed out after {cfg['timeout_s']:g} s"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    duration_ms = (time.perf_counter() - started) * 1000

    if status_code is not None and 200 <= status_code < 300:
        return _record(delivery, number, now, duration_ms, status_code, "", excerpt, final=False, succeeded=True)
    retryable = status_code is None or status_code in (408, 429) or status_code >= 500
    if status_code is not None:
        error = f"HTTP {status_code}" + ("" if retryable else " (not retried: the receiver refused the request)")
    if retryable and number < endpoint.max_attempts:
        return _record(
            delivery, number, now, duration_ms, status_code, error, excerpt, final=False,
            retry_in_s=backoff_s(number, retry_after),
        )  # fmt: skip
    if retryable:
        error += f"; gave up after {number} attempts"
    return _record(delivery, number, now, duration_ms, status_code, error, excerpt, final=True)


def deliver(delivery_id: int) -> dict[str, Any] | None:
    """The task `webhooks.deliver`: one attempt, then the next one scheduled if it failed and may
    be retried. A duplicate or early task finds nothing to claim and does nothing (None)."""
    outcome = attempt_delivery(delivery_id)
    if outcome is None:
        return None
    if outcome.retry_in_s is not None:
        enqueue([delivery_id], countdown=outcome.retry_in_s)
    return {"delivery": delivery_id, "attempt": outcome.number, "state": outcome.state, "error": outcome.error}


def _log_lost_attempts(delivery: WebhookDelivery, number: int) -> None:
    """Earlier attempts that claimed the delivery but never recorded a result (their worker
    died mid-request) get a log row, so the log shows every attempt counted against the max."""
    logged = set(DeliveryAttempt.objects.filter(delivery=delivery).values_list("number", flat=True))
    DeliveryAttempt.objects.bulk_create(
        DeliveryAttempt(
            delivery=delivery,
            number=lost,
            started_at=delivery.created,  # unknown; the delivery's creation bounds it
            duration_ms=0.0,
            error="no result: the worker stopped during this attempt",
        )
        for lost in range(1, number)
        if lost not in logged
    )


def _excerpt(response: httpx.Response, timeout_s: float) -> str:
    """The start of the answer, for the log: a huge or trickling answer is not read to its end."""
    head = b""
    deadline = time.monotonic() + timeout_s
    for chunk in response.iter_bytes():
        head += chunk
        if len(head) >= RESPONSE_EXCERPT_CHARS * 4 or time.monotonic() > deadline:  # 4: UTF-8's widest character
            break
    return head.decode(response.encoding or "utf-8", errors="replace")[:RESPONSE_EXCERPT_CHARS]


def _retry_after(response: httpx.Response) -> float | None:
    if response.status_code not in (429, 503):
        return None
    try:
        return max(0.0, float(response.headers.get("Retry-After", "")))
    except ValueError:
        return None  # an HTTP date, or nothing: the backoff schedule applies


def _record(
    delivery: WebhookDelivery,
    number: int,
    started_at: datetime,
    duration_ms: float,
    status_code: int | None,
    error: str,
    excerpt: str,
    *,
    final: bool,
    succeeded: bool = False,
    retry_in_s: float | None = None,
) -> AttemptOutcome:
    finished = timezone.now()
    next_retry_at = finished + timedelta(seconds=retry_in_s) if retry_in_s is not None else None
    if succeeded:
        state = WebhookDelivery.State.SUCCEEDED
    elif final:
        state = WebhookDelivery.State.FAILED
    else:
        state = WebhookDelivery.State.PENDING
    with transaction.atomic():
        DeliveryAttempt.objects.create(
            delivery=delivery,
            number=number,
            started_at=started_at,
            duration_ms=duration_ms,
            status_code=status_code,
            error=error,
            response_excerpt=excerpt,
            next_retry_at=next_retry_at,
        )
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            state=state,
            next_attempt_at=next_retry_at,
            sending_since=None,
            last_status_code=status_code,
            last_error=error,
            finished_at=None if state == WebhookDelivery.State.PENDING else finished,
        )
    return AttemptOutcome(delivery.pk, number, state, status_code, error, retry_in_s)


# --- maintenance ----------------------------------------------------------------------------


def requeue_overdue(now: datetime | None = None, limit: int = 1000) -> int:
    """Re-enqueue pending deliveries overdue by more than `stale_after_s`: their task was lost
    (the broker was down at commit, a worker died mid-attempt, a countdown task vanished).
    Their due time moves to now, so the next run does not enqueue them again meanwhile."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=config()["stale_after_s"])
    with transaction.atomic():
        overdue = list(
            WebhookDelivery.objects.select_for_update(skip_locked=True)
            .filter(state=WebhookDelivery.State.PENDING, next_attempt_at__lt=cutoff)
            .order_by("next_attempt_at")
            .values_list("pk", flat=True)[:limit]
        )
        WebhookDelivery.objects.filter(pk__in=overdue).update(next_attempt_at=now)
    enqueue(overdue)
    return len(overdue)


def purge_finished(now: datetime | None = None) -> int:
    """Delete finished deliveries (and events left without any) older than the retention."""
    cutoff = (now or timezone.now()) - timedelta(days=config()["retention_days"])
    deleted, _ = WebhookDelivery.objects.filter(finished_at__lt=cutoff).delete()
    WebhookEvent.objects.filter(created__lt=cutoff, deliveries__isnull=True).delete()
    return deleted


def maintain() -> dict[str, int]:
    """The beat task `webhooks.maintain`: re-enqueue deliveries whose task was lost; purge old
    finished ones."""
    return {"requeued": requeue_overdue(), "purged": purge_finished()}
