"""Repair metrics (issue #5): metrics_now, the current values (GET /api/tickets/metrics/), and
metrics_history, per day or ISO week (UTC) from the stored tickets, steps and decisions in one SQL
query whatever the number of buckets (GET /api/tickets/metrics/history/).

metrics_history answers "how did repairs go": per bucket, tickets opened and resolved, tickets
still unresolved at the bucket's end, first attempts (and how many fixed, split by whether the technician followed the
recommendation) counted in the bucket of the action, the mean time to repair of the actions that
fixed in the bucket (ticket opened -> that action), links disabled for corruption (decisions) and
repair actions recorded (each re-enables its link unless it is disabled for another reason).
Every bucket of the range is present, empty ones with zeros and null rates, so a chart's time axis
is continuous.

Repairs and preventive work are counted apart (issue #19): first-attempt success, mean time to
repair and repaired tickets are of repair tickets (a link CorrOpt took out for corruption); a
preventive ticket's first step (the forecast's repair on a link still in service) is
`preventive_first_attempt`: did the work done before any corruption hold. A preventive ticket
whose link corrupted anyway shows there as not fixed. Tickets opened, resolved and unresolved,
and repair actions, count both kinds.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from django.db import connection
from django.db.models import Avg, Count, F, Q

import lightpath_engine
from fabric.models import Fabric, Link
from fabric.services.capacity import fabric_capacity
from fabric.services.corrupting import corrupting_in_service
from telemetry.models import CorruptionEvent

from .models import Decision, Ticket, TicketStep
from .tickets import UNRESOLVED

Bucket = Literal["day", "week"]
BUCKETS: tuple[Bucket, ...] = ("day", "week")
BUCKET_STEP = {"day": "1 day", "week": "1 week"}  # PostgreSQL intervals
# Two years of days is 731 buckets: a chart still reads it, the query stays cheap.
MAX_RANGE = dt.timedelta(days=2 * 366)

# First attempts count once their outcome is known (fixed, or the corruption recurred), as in
# metrics_now; a first step still pending validation is neither. Only the table names are
# formatted in; every value is a query parameter.
_HISTORY_SQL = f"""
WITH buckets AS (
    SELECT b AS bucket_start,
           b AT TIME ZONE 'UTC' AS lo,
           (b + %(step)s::interval) AT TIME ZONE 'UTC' AS hi
    FROM generate_series(
        date_trunc(%(unit)s, %(start)s::timestamptz AT TIME ZONE 'UTC'),
        date_trunc(%(unit)s, (%(end)s::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC'),
        %(step)s::interval
    ) AS b
),
span AS (SELECT min(lo) AS lo, max(hi) AS hi FROM buckets),
tickets AS (
    SELECT id, kind, created, resolved_at FROM {Ticket._meta.db_table}
    WHERE %(fabric)s::bigint IS NULL OR fabric_id = %(fabric)s::bigint
),
opened AS (
    SELECT date_trunc(%(unit)s, t.created AT TIME ZONE 'UTC') AS bucket_start, count(*) AS n
    FROM tickets t, span WHERE t.created >= span.lo AND t.created < span.hi GROUP BY 1
),
resolved AS (
    SELECT date_trunc(%(unit)s, t.resolved_at AT TIME ZONE 'UTC') AS bucket_start, count(*) AS n
    FROM tickets t, span WHERE t.resolved_at >= span.lo AND t.resolved_at < span.hi GROUP BY 1
),
acted AS (
    SELECT date_trunc(%(unit)s, s.acted_at AT TIME ZONE 'UTC') AS bucket_start,
           count(*) AS repair_actions,
           count(*) FILTER (WHERE r AND s.number = 1 AND s.outcome IN ('fixed', 'recurred')) AS first_attempts,
           count(*) FILTER (WHERE r AND s.number = 1 AND s.outcome = 'fixed') AS first_fixed,
           count(*) FILTER (WHERE r AND s.number = 1 AND s.outcome IN ('fixed', 'recurred') AND s.followed)
               AS followed_attempts,
           count(*) FILTER (WHERE r AND s.number = 1 AND s.outcome = 'fixed' AND s.followed) AS followed_fixed,
           count(*) FILTER (WHERE r AND s.number = 1 AND s.outcome IN ('fixed', 'recurred') AND NOT s.followed)
               AS not_followed_attempts,
           count(*) FILTER (WHERE r AND s.number = 1 AND s.outcome = 'fixed' AND NOT s.followed)
               AS not_followed_fixed,
           count(*) FILTER (WHERE r AND s.outcome = 'fixed') AS repaired,
           avg(extract(epoch FROM s.acted_at - t.created)) FILTER (WHERE r AND s.outcome = 'fixed') / 3600.0
               AS mttr_hours,
           count(*) FILTER (WHERE NOT r AND s.number = 1 AND s.outcome IN ('fixed', 'recurred'))
               AS preventive_attempts,
           count(*) FILTER (WHERE NOT r AND s.number = 1 AND s.outcome = 'fixed') AS preventive_fixed
    FROM {TicketStep._meta.db_table} s JOIN tickets t ON t.id = s.ticket_id,
         LATERAL (SELECT t.kind = '{Ticket.Kind.REPAIR.value}' AS r) kind, span
    WHERE s.acted_at >= span.lo AND s.acted_at < span.hi
    GROUP BY 1
),
disabled AS (
    SELECT date_trunc(%(unit)s, d.created AT TIME ZONE 'UTC') AS bucket_start, count(*) AS n
    FROM {Decision._meta.db_table} d, span
    WHERE d.action = 'disabled' AND d.created >= span.lo AND d.created < span.hi
      AND (%(fabric)s::bigint IS NULL OR d.fabric_id = %(fabric)s::bigint)
    GROUP BY 1
),
-- Unresolved at a bucket's end: created before it and not resolved before it. Counted as the
-- tickets unresolved when the range starts plus the running sum of opened minus resolved, so that
-- open(b) = open(b - 1) + opened(b) - resolved(b) holds, and the cost stays linear.
unresolved_before AS (
    SELECT count(*) FILTER (WHERE t.created < span.lo) - count(*) FILTER (WHERE t.resolved_at < span.lo) AS n
    FROM tickets t, span
)
SELECT b.lo, b.hi,
       coalesce(o.n, 0), coalesce(r.n, 0),
       (u.n + sum(coalesce(o.n, 0) - coalesce(r.n, 0)) OVER (ORDER BY b.bucket_start))::bigint,
       coalesce(a.first_attempts, 0), coalesce(a.first_fixed, 0),
       coalesce(a.followed_attempts, 0), coalesce(a.followed_fixed, 0),
       coalesce(a.not_followed_attempts, 0), coalesce(a.not_followed_fixed, 0),
       coalesce(a.repaired, 0), a.mttr_hours,
       coalesce(d.n, 0), coalesce(a.repair_actions, 0),
       coalesce(a.preventive_attempts, 0), coalesce(a.preventive_fixed, 0)
FROM buckets b
CROSS JOIN unresolved_before u
LEFT JOIN opened o USING (bucket_start)
LEFT JOIN resolved r USING (bucket_start)
LEFT JOIN acted a USING (bucket_start)
LEFT JOIN disabled d USING (bucket_start)
ORDER BY b.bucket_start
"""  # noqa: S608


def _rate(attempts: int, fixed: int) -> dict[str, Any]:
    return {"attempts": attempts, "fixed": fixed, "rate": fixed / attempts if attempts else None}


def metrics_history(
    fabric: Fabric | None, start: dt.datetime, end: dt.datetime, bucket: Bucket = "day"
) -> dict[str, Any]:
    """Repair metrics per bucket for the whole buckets (UTC days, or ISO weeks from Monday)
    covering [start, end); `fabric` None means every fabric. Callers check the range (start <
    end, at most MAX_RANGE) and the bucket; this raises ValueError otherwise."""
    if bucket not in BUCKETS:
        raise ValueError(f"bucket must be one of {', '.join(BUCKETS)}, got {bucket!r}")
    if not start < end or end - start > MAX_RANGE:
        raise ValueError("the range must be non-empty and at most two years")
    params: dict[str, Any] = {
        "unit": bucket,
        "step": BUCKET_STEP[bucket],
        "start": start,
        "end": end,
        "fabric": fabric.pk if fabric else None,
    }
    with connection.cursor() as cursor:
        cursor.execute(_HISTORY_SQL, params)
        rows = cursor.fetchall()
    buckets = []
    for (
        lo,
        hi,
        opened,
        resolved,
        open_at_end,
        attempts,
        fixed,
        followed_attempts,
        followed_fixed,
        not_followed_attempts,
        not_followed_fixed,
        repaired,
        mttr_hours,
        disabled,
        repair_actions,
        preventive_attempts,
        preventive_fixed,
    ) in rows:
        buckets.append(
            {
                "start": lo.isoformat(),
                "end": hi.isoformat(),
                "tickets_opened": opened,
                "tickets_resolved": resolved,
                "open_tickets": open_at_end,
                "first_attempt": {
                    "all": _rate(attempts, fixed),
                    "followed": _rate(followed_attempts, followed_fixed),
                    "not_followed": _rate(not_followed_attempts, not_followed_fixed),
                },
                "mean_time_to_repair_hours": float(mttr_hours) if mttr_hours is not None else None,
                "repaired_tickets": repaired,
                "links_disabled": disabled,
                "repair_actions": repair_actions,
                "preventive_first_attempt": _rate(preventive_attempts, preventive_fixed),
            }
        )
    return {
        "fabric": fabric.pk if fabric else None,
        "bucket": bucket,
        "from": start.isoformat(),
        "to": end.isoformat(),
        "buckets": buckets,
    }


def metrics_now(fabric: Fabric | None = None) -> dict[str, Any]:
    """First-attempt success (a repair ticket's first step fixed it), split by whether the technician
    followed the recommendation; mean time to repair (repair ticket opened -> the action that fixed
    it, resolved tickets only); preventive tickets' first steps apart; unresolved tickets by state; disabled links. For one fabric also
    what its traffic suffers now: the total penalty of the links that still carry corruption
    (enabled and up, with an open event: kept for capacity or not yet decided) and the worst
    ToR's fraction of up-paths."""
    tickets = Ticket.objects.all() if fabric is None else Ticket.objects.filter(fabric=fabric)
    repairs = tickets.filter(kind=Ticket.Kind.REPAIR)
    links = Link.objects.all() if fabric is None else Link.objects.filter(fabric=fabric)
    first = TicketStep.objects.filter(ticket__in=repairs, number=1, outcome__in=["fixed", "recurred"])
    preventive_first = TicketStep.objects.filter(
        ticket__in=tickets.filter(kind=Ticket.Kind.PREVENTIVE), number=1, outcome__in=["fixed", "recurred"]
    )

    def rate(steps) -> dict[str, Any]:
        counts = steps.aggregate(attempts=Count("pk"), fixed=Count("pk", filter=Q(outcome="fixed")))
        attempts, fixed = counts["attempts"], counts["fixed"]
        return {"attempts": attempts, "fixed": fixed, "rate": fixed / attempts if attempts else None}

    repair = (
        TicketStep.objects.filter(ticket__in=repairs, outcome="fixed", acted_at__isnull=False)
        .annotate(duration=F("acted_at") - F("ticket__created"))
        .aggregate(mean=Avg("duration"), count=Count("pk"))
    )
    by_state = dict(tickets.filter(state__in=UNRESOLVED).values_list("state").annotate(n=Count("pk")))
    disabled = links.filter(admin_state=Link.AdminState.DISABLED)
    return {
        "fabric": fabric.pk if fabric else None,
        "first_attempt": {
            "all": rate(first),
            "followed": rate(first.filter(followed=True)),
            "not_followed": rate(first.filter(followed=False)),
        },
        "mean_time_to_repair_hours": repair["mean"].total_seconds() / 3600 if repair["mean"] else None,
        "repaired_tickets": repair["count"],
        "preventive_first_attempt": rate(preventive_first),
        "open_tickets": sum(by_state.values()),
        "open_tickets_by_state": {str(state): by_state.get(state, 0) for state in UNRESOLVED},
        "disabled_links": disabled.count(),
        "disabled_links_for_corruption": disabled.filter(admin_reason="corruption").count(),
        **(_fabric_now(fabric) if fabric is not None else dict.fromkeys(FABRIC_NOW_KEYS)),
    }


FABRIC_NOW_KEYS = ("corrupting_links_in_service", "current_penalty", "worst_tor_fraction")


def _fabric_now(fabric: Fabric) -> dict[str, Any]:
    corrupting = corrupting_in_service(Link.objects.filter(fabric=fabric))
    rates = CorruptionEvent.objects.filter(link__in=corrupting, ended_at__isnull=True).values_list(
        "last_rate", flat=True
    )
    # The decisions' penalty (the engine's linear I(f) = f), summed over each link's directions.
    penalty = sum(lightpath_engine.corropt_penalty("linear", rate) for rate in rates)
    return {
        "corrupting_links_in_service": corrupting.count(),
        "current_penalty": penalty,
        "worst_tor_fraction": fabric_capacity(fabric)["summary"]["min_fraction"],
    }
