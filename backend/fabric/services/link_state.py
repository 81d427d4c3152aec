"""The capacity guard: the one way a link's admin or operational state changes (docs/capacity-guard.md).

People (the API: one link, a bulk list, a switch drain, a delete), repair tickets, CorrOpt's fast
checker and optimizer, and telemetry all come here. Every call runs under the fabric's advisory
lock, so their changes are serialised and each is decided on the state its predecessor committed.

- `change_admin_states`: taking links out of service is applied only when no ToR falls under its
  capacity constraint (a ToR already under it may lose nothing more), the whole set at once; an
  admin may override with a reason. Putting links back is always allowed.
- `set_oper_states`: measured state; never refused. Usable links going down send `capacity_lost`
  (a ToR may be under its constraint now: the capacity recovery runs).
- `set_measured_health`, `set_flapping`: what telemetry derives of a link (health, rx_low,
  flapping), written set-based; they change no capacity, so nothing is audited, published or
  re-optimized for them.

Each applied change is audited, published to the fabric's webhooks (outbox rows in the same
transaction), and a link that becomes usable again re-runs CorrOpt's optimizer once the
transaction commits (the `capacity_changed` signal).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from audit import services as audit
from telemetry.services.forecasts import disabled_for_corruption_sql, link_failed
from webhooks import services as webhooks

from ..models import Link, Switch
from ..signals import capacity_changed, capacity_lost
from . import live
from .engine import StateName, engine_state

# Advisory-lock namespace of a fabric's link-state changes; CorrOpt's decisions took it first
# (telemetry ingest uses 0x7E1E).
LOCK_NAMESPACE = 0xC022
MAINTENANCE = "maintenance"  # the reason a drained switch's links carry
OVERRIDE_NOTE = "capacity override"
TELEMETRY_NOTE = "telemetry: oper_status"


def lock_fabric(fabric_id: int) -> None:
    """Serialise link-state changes of one fabric until the end of the current transaction."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, fabric_id])


class GuardError(ValueError):
    """The request names links the guard cannot change (another fabric's, unknown ones)."""


@dataclass(frozen=True)
class AdminChange:
    admin_state: str
    admin_reason: str = ""


@dataclass
class Verdict:
    """What a set of changes does to the fabric's ToRs, and whether it was applied."""

    safe: bool
    links: list[int]  # the links whose state changes (or would)
    affected_tors: list[dict[str, Any]]
    blocking_tors: list[dict[str, Any]]  # worst first
    applied: bool = False
    override: bool = False
    changed: list[Link] = field(default_factory=list, repr=False)

    def detail(self) -> str:
        count = len(self.links)
        links = f"{count} link{'s' if count != 1 else ''}"
        if not self.links:
            return "Nothing to change: every link is already in the asked state."
        if self.safe:
            return f"Safe: no ToR falls under its capacity constraint ({links} changing)."
        worst = self.blocking_tors[0]
        more = len(self.blocking_tors) - 1
        tail = f" ({more} more ToR{'s' if more > 1 else ''} too)" if more else ""
        verb = "Overridden" if self.applied else "Refused"
        return (
            f"{verb}: {worst['name']} would fall to {worst['paths_after']} of {worst['design_paths']} up-paths, "
            f"under the {worst['required_paths']} its constraint ({worst['constraint']:g}) requires{tail}."
        )

    def as_preview(self) -> dict[str, Any]:
        """The dry-run answer."""
        return {
            "verdict": "safe" if self.safe else "unsafe",
            "detail": self.detail(),
            "links": self.links,
            "affected_tors": public_rows(self.affected_tors),
            "blocking_tors": public_rows(self.blocking_tors),
        }

    def as_refusal(self) -> dict[str, Any]:
        """The 409 answer."""
        return {"detail": self.detail(), "blocking_tors": public_rows(self.blocking_tors), "links": self.links}


PUBLIC_TOR_KEYS = ("switch", "name", "paths_before", "paths_after", "required_paths", "design_paths", "constraint")


def public_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """ToR rows as the API answers them (a spine of a large fabric affects thousands of ToRs: no
    field twice)."""
    return [{key: row[key] for key in PUBLIC_TOR_KEYS} for row in rows]


def _tor_rows(state, impacts: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "switch": state.switch_ids[impact["tor"]],
            "name": state.switch_names[impact["tor"]],
            "paths_before": impact["paths_before"],
            "paths_after": impact["paths_after"],
            "design_paths": impact["design_paths"],
            "required_paths": impact["required_paths"],
            "constraint": impact["threshold"],
            # CorrOpt's decisions store these too (Decision.affected).
            "fraction_before": impact["fraction_before"],
            "fraction_after": impact["fraction_after"],
            "threshold": impact["threshold"],
        }
        for impact in impacts
    ]


def _evaluate(fabric_id: int, targets: Mapping[int, StateName], current: Mapping[int, StateName]) -> Verdict:
    """The guard's verdict on setting links (id -> engine state) that are now in `current` states."""
    changing = {link_id: state for link_id, state in targets.items() if current[link_id] != state}
    with live.live_fabric(fabric_id, locked=True) as fabric:
        index = fabric.state.link_index
        result = fabric.session.evaluate([(index[link_id], state) for link_id, state in changing.items()])
        affected = _tor_rows(fabric.state, result["affected"])
    blocking_ids = {fabric.state.switch_ids[tor] for tor in result["blocking"]}
    blocking = sorted(
        (row for row in affected if row["switch"] in blocking_ids),
        key=lambda row: (row["paths_before"] - row["required_paths"], row["name"]),
    )
    return Verdict(result["safe"], sorted(changing), affected, blocking)


def _locked_links(fabric_id: int, link_ids: Iterable[int]) -> dict[int, Link]:
    ids = set(link_ids)
    links = {
        link.pk: link
        for link in Link.objects.select_for_update(of=("self",))
        .select_related("a_switch", "z_switch")  # their names: the audit's and webhooks' text
        .filter(pk__in=ids)
        .order_by("pk")
    }
    problems = [f"link {pk} does not exist" for pk in sorted(ids - set(links))]
    problems += [f"link {pk} is in another fabric" for pk, link in links.items() if link.fabric_id != fabric_id]
    if problems:
        raise GuardError("; ".join(problems))
    return links


def change_admin_states(
    fabric_id: int,
    changes: Mapping[int, AdminChange],
    user,
    *,
    dry_run: bool = False,
    override: bool = False,
    why: str | None = None,
) -> Verdict:
    """Decide `changes` (link id -> wanted admin state and reason) as one set and apply them
    unless this is a dry run, or the set is unsafe and not overridden (the caller checks that an
    override is an admin's, with a reason). Runs in its own transaction, or the caller's. `why`:
    the reason the optimizer is told when links come back (default: which links)."""
    unknown = sorted({change.admin_state for change in changes.values()} - set(Link.AdminState.values))
    if unknown:
        raise GuardError(f"admin_state must be enabled or disabled, got {', '.join(map(repr, unknown))}")
    with transaction.atomic():
        lock_fabric(fabric_id)
        links = _locked_links(fabric_id, changes)
        current = {pk: engine_state(link.admin_state, link.oper_state) for pk, link in links.items()}
        targets = {pk: engine_state(change.admin_state, links[pk].oper_state) for pk, change in changes.items()}
        verdict = _evaluate(fabric_id, targets, current)
        verdict.override = override and not verdict.safe
        if dry_run or not (verdict.safe or override):
            return verdict
        verdict.applied = True
        wanted = {pk: change for pk, change in changes.items() if links[pk].admin_state != change.admin_state}
        verdict.changed = _write_admin(
            fabric_id, [links[pk] for pk in sorted(wanted)], wanted, current, user, verdict, why
        )
    return verdict


def set_admin_state(
    link: Link,
    admin_state: str,
    reason: str = "",
    user=None,
    *,
    override: bool = False,
    dry_run: bool = False,
    why: str | None = None,
) -> Verdict:
    """One link's admin state through the guard; `link` is updated in place when applied."""
    verdict = change_admin_states(
        link.fabric_id, {link.pk: AdminChange(admin_state, reason)}, user, override=override, dry_run=dry_run, why=why
    )
    for changed in verdict.changed:
        for name in ("admin_state", "admin_reason", "admin_changed_by_id", "admin_changed_at", "state_version"):
            setattr(link, name, getattr(changed, name))
    return verdict


def _write_admin(
    fabric_id: int,
    links: list[Link],
    wanted: Mapping[int, AdminChange],
    current: Mapping[int, StateName],
    user,
    verdict: Verdict,
    why: str | None,
) -> list[Link]:
    if not links:
        return []
    now = timezone.now()
    by = user if user is not None and user.is_authenticated else None
    befores = [(link, audit.snapshot(link), link.admin_state, link.usable) for link in links]
    failed_before = {link.pk: link_failed(link) for link in links}
    for link in links:
        change = wanted[link.pk]
        link.admin_state = change.admin_state
        link.admin_reason = change.admin_reason[:200]
        link.admin_changed_by = by
        link.admin_changed_at = now
    _update(
        fabric_id,
        links,
        current,
        "admin_state = v.state, admin_reason = v.reason, admin_changed_by_id = %s, admin_changed_at = %s",
        [by.pk if by is not None else None, now],
        [(link.admin_state, link.admin_reason) for link in links],
    )
    note = f"{OVERRIDE_NOTE}: {links[0].admin_reason}" if verdict.override else ""
    fields = ["admin_state", "admin_reason", "admin_changed_by", "admin_changed_at", "state_version"]
    audit.record_many(
        user,
        audit.UPDATE,
        [(link, before, audit.snapshot_changed(before, link, fields)) for link, before, _, _ in befores],
        note=note,
    )
    with webhooks.batched_link_changes():
        for link, _, previous, _ in befores:
            webhooks.link_admin_state_changed(link, previous, override=verdict.override)
        webhooks.link_failures_changed(
            [(link.pk, fabric_id, link_failed(link)) for link in links if link_failed(link) != failed_before[link.pk]],
            now,
        )
    back = [link for link, _, _, was_usable in befores if link.usable and not was_usable]
    _capacity_back(fabric_id, back, user, why)
    return links


def _update(
    fabric_id: int,
    links: list[Link],
    current: Mapping[int, StateName],
    assignments: str,
    params: list[Any],
    values: list[tuple[str, str]],
) -> None:
    """Write the links' new state with one statement (Django's bulk_update builds a CASE per
    field and row: 1.1 s for a 64-link drain), and tell this process's live session which versions
    the trigger gave them. `assignments` may use v.state and v.reason, one (state, reason) per link."""
    table = Link._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} l SET {assignments} "  # noqa: S608 (names from code; values are parameters)
            # One JSON parameter: psycopg quotes text arrays element by element with regular expressions
            # (60 ms for a 261-link drain).
            "FROM jsonb_to_recordset(%s::jsonb) AS v(id bigint, state text, reason text) WHERE l.id = v.id "
            "RETURNING l.id, l.state_version, pg_current_xact_id()::text",
            [
                *params,
                json.dumps(
                    [
                        {"id": link.pk, "state": state, "reason": reason}
                        for link, (state, reason) in zip(links, values, strict=True)
                    ]
                ),
            ],
        )
        rows = cursor.fetchall()
    versions = {link_id: version for link_id, version, _ in rows}
    for link in links:
        link.state_version = versions[link.pk]
    live.record(fabric_id, int(rows[0][2]), {link.pk: (versions[link.pk], current[link.pk]) for link in links})


def _capacity_back(fabric_id: int, links: list[Link], user, why: str | None = None) -> None:
    """Usable links came back: the optimizer may now let corrupting links go (reference 6.2)."""
    if not links:
        return
    named = ", ".join(str(link.pk) for link in links[:5]) + (f" and {len(links) - 5} more" if len(links) > 5 else "")
    reason = why or f"link{'s' if len(links) > 1 else ''} {named} enabled and up"
    capacity_changed.send(sender=Link, fabric_id=fabric_id, reason=reason, user=user)


def check_removal(fabric_id: int, link_ids: Iterable[int]) -> Verdict:
    """Deleting links counts as taking them out of service: the verdict, under the lock, in the
    caller's transaction (which deletes when `applied`; a deletion is never overridden)."""
    ids = list(link_ids)
    lock_fabric(fabric_id)
    links = _locked_links(fabric_id, ids)
    current = {pk: engine_state(link.admin_state, link.oper_state) for pk, link in links.items()}
    verdict = _evaluate(fabric_id, dict.fromkeys(ids, "disabled"), current)
    verdict.applied = verdict.safe
    return verdict


def switch_links(switch: Switch) -> list[int]:
    return list(Link.objects.filter(Q(a_switch=switch) | Q(z_switch=switch)).order_by().values_list("id", flat=True))


def drain_switch(switch: Switch, user, *, note: str = "", dry_run: bool = False, override: bool = False) -> Verdict:
    """Every enabled link of the switch out of service for maintenance, decided as one set."""
    reason = f"{MAINTENANCE}: {note}" if note else MAINTENANCE
    enabled = Link.objects.filter(pk__in=switch_links(switch), admin_state=Link.AdminState.ENABLED).order_by()
    changes = {pk: AdminChange(Link.AdminState.DISABLED, reason) for pk in enabled.values_list("id", flat=True)}
    return change_admin_states(switch.fabric_id, changes, user, dry_run=dry_run, override=override)


def undrain_switch(switch: Switch, user, *, dry_run: bool = False) -> Verdict:
    """Every link of the switch disabled for maintenance back in service (links disabled for
    another reason, corruption say, stay as they are)."""
    drained = Link.objects.filter(pk__in=switch_links(switch), admin_state=Link.AdminState.DISABLED).filter(
        admin_reason__startswith=MAINTENANCE
    )
    changes = {pk: AdminChange(Link.AdminState.ENABLED, "") for pk in drained.values_list("id", flat=True)}
    return change_admin_states(switch.fabric_id, changes, user, dry_run=dry_run)


def set_oper_states(fabric_id: int, states: Mapping[int, str]) -> list[int]:
    """Measured operational states (link id -> "up" | "down", from telemetry): written where they
    differ, audited as the system, published (`link.oper_state_changed`); links usable again
    re-run the optimizer. Never refused: a link that is down is down. Returns the changed ids."""
    if not states:
        return []
    with transaction.atomic():
        lock_fabric(fabric_id)
        links = _locked_links(fabric_id, states)
        changed = [links[pk] for pk in sorted(states) if links[pk].oper_state != states[pk]]
        if not changed:
            return []
        now = timezone.now()
        befores = [(link, audit.snapshot(link), link.oper_state, link.usable) for link in changed]
        current = {link.pk: engine_state(link.admin_state, link.oper_state) for link in changed}
        for link in changed:
            link.oper_state = states[link.pk]
            link.oper_changed_at = now
        _update(
            fabric_id,
            changed,
            current,
            "oper_state = v.state, oper_changed_at = %s",
            [now],
            [(link.oper_state, "") for link in changed],
        )
        fields = ["oper_state", "oper_changed_at", "state_version"]
        audit.record_many(
            None,
            audit.UPDATE,
            [(link, before, audit.snapshot_changed(before, link, fields)) for link, before, _, _ in befores],
            note=TELEMETRY_NOTE,
        )
        webhooks.publish_oper_changes([(link, previous) for link, _, previous, _ in befores], now)
        _capacity_back(fabric_id, [link for link, _, _, was_usable in befores if link.usable and not was_usable], None)
        lost = [link.pk for link, _, _, was_usable in befores if was_usable and not link.usable]
        if lost:
            capacity_lost.send(sender=Link, fabric_id=fabric_id, links=lost)
    return [link.pk for link in changed]


def set_measured_health(rows_sql: str, params: Mapping[str, Any] | Sequence[Any] | None = None) -> int:
    """Telemetry's health and rx_low of links: `rows_sql` is a query of (id, health, rx_low)
    rows, written where they differ in one statement (derivation scopes it to the links it
    touched; a 100K-link fabric is one UPDATE, never a save per row). Links that start or stop
    corrupting fail or stop being failed: their risk webhooks follow (`webhooks.link_failures_changed`).
    Returns how many changed."""
    table = Link._meta.db_table
    corrupting = f"'{Link.Health.CORRUPTING}'"
    with connection.cursor() as cursor:
        # `o` is the row before the statement: its health against the new one.
        cursor.execute(
            f"""
            WITH changed AS (
                UPDATE {table} l SET health = s.health, rx_low = s.rx_low
                  FROM ({rows_sql}) s JOIN {table} o ON o.id = s.id
                 WHERE l.id = s.id AND (l.health <> s.health OR l.rx_low <> s.rx_low)
                RETURNING l.id, l.fabric_id, s.health = {corrupting} AS corrupting,
                          (o.health = {corrupting}) <> (s.health = {corrupting}) AND NOT {disabled_for_corruption_sql("l")}
                          AS failure_changed
            )
            SELECT count(*), coalesce(json_agg(json_build_array(id, fabric_id, corrupting)) FILTER (WHERE failure_changed),
                                      '[]') FROM changed
            """,  # noqa: S608 (SQL from code)
            params,
        )
        count, failures = cursor.fetchone()
    webhooks.link_failures_changed([tuple(failure) for failure in failures], timezone.now())
    return count


def set_flapping(fabric_id: int, flags: Mapping[int, bool]) -> None:
    """Telemetry's flapping flag of links (link id -> flapping), written where it differs."""
    if not flags:
        return
    ids = sorted(flags)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Link._meta.db_table} l SET flapping = d.flapping "  # noqa: S608 (the table's name from code)
            "FROM unnest(%s::bigint[], %s::bool[]) AS d(id, flapping) "
            "WHERE l.id = d.id AND l.fabric_id = %s AND l.flapping <> d.flapping",
            [ids, [flags[i] for i in ids], fabric_id],
        )
