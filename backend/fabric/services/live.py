"""Each process's engine session of a fabric, kept current by reading only what changed.

Building a fabric's engine state reads every link (about 250 ms at 100K links); the capacity guard
decides a change in well under that by keeping one `CorrOptSession` per fabric and process and
bringing it up to date from two cheap reads (docs/capacity-guard.md):

- the fabric's topology version (a trigger bumps it when switches or links are added or removed
  or a ToR's constraint changes) and its default constraint: either changed, rebuild;
- the links whose `state_version` (a trigger stamps it from one sequence when admin or oper state
  changes) is above the highest the session has seen.

Every writer of link state holds the fabric's advisory lock (link_state.lock_fabric), so versions
are drawn in commit order and a committed row is never behind the watermark.

The session holds only committed states. Changes the current transaction made through the guard
are re-read as "own" rows (their versions are recorded in a `Pending` with the transaction's id)
and applied for the duration of one call only, so a rolled-back transaction leaves the session as
it was. The rows a rebuild reads are what this transaction sees; own rows among them
are put back to their state before the change.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection

import lightpath_engine

from ..models import Fabric, Link
from .engine import EngineFabric, StateName, engine_fabric, engine_state

_lock = threading.Lock()  # one call at a time per process: a session is not for concurrent use


@dataclass
class Pending:
    """Link states written by a transaction (PostgreSQL's id of it) that may not have committed."""

    transaction_id: int
    before: dict[int, tuple[int, StateName]]  # link id -> (version written, engine state before)


@dataclass
class LiveFabric:
    """A fabric's engine state and the session kept current for it."""

    topology_version: int | None
    capacity: float
    state: EngineFabric
    session: lightpath_engine.CorrOptSession
    watermark: int  # highest committed state_version applied to the session
    pending: list[Pending] = field(default_factory=list)

    def own_pending(self, transaction_id: int | None, locked: bool) -> list[Pending]:
        """The pendings of the current transaction. Under the fabric's lock any other one has
        ended (committed: its rows are ordinary rows now; rolled back: they are gone) and is
        dropped; an unlocked reader keeps them (their rows are invisible to it until committed)."""
        own = [p for p in self.pending if p.transaction_id == transaction_id]
        if locked:
            self.pending = own
        return own


_entries: dict[int, LiveFabric] = {}


def forget() -> None:
    """Drop every cached session (tests that rebuild the schema; benchmarks measuring a cold start)."""
    with _lock:
        _entries.clear()


def _fabric_versions(fabric_id: int) -> tuple[float, int | None, int | None] | None:
    """The fabric's default constraint, topology version, and this transaction's id (None
    before it wrote anything)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT f.capacity_constraint, v.version, pg_current_xact_id_if_assigned()::text FROM fabric_fabric f "
            "LEFT JOIN fabric_topology_version v ON v.fabric_id = f.id WHERE f.id = %s",
            [fabric_id],
        )
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1], None if row[2] is None else int(row[2]))


@contextmanager
def live_fabric(fabric_id: int, *, locked: bool) -> Iterator[LiveFabric]:
    """The fabric's engine state with its session current as this transaction sees it, for the
    duration of the block (one thread at a time). Nothing in the block may change the session
    for good (`evaluate` does not); the state of own uncommitted rows is undone on exit.
    `locked`: the caller holds the fabric's lock (link_state.lock_fabric). Raises
    Fabric.DoesNotExist."""
    with _lock:
        versions = _fabric_versions(fabric_id)
        if versions is None:
            _entries.pop(fabric_id, None)
            raise Fabric.DoesNotExist(f"fabric {fabric_id} does not exist")
        capacity, topology_version, transaction_id = versions
        entry = _entries.get(fabric_id)
        own_pending = [] if entry is None else entry.own_pending(transaction_id, locked)
        if entry is None or entry.topology_version != topology_version or entry.capacity != capacity:
            entry = _rebuild(fabric_id, topology_version, entry, own_pending)
        own = _sync(fabric_id, entry, own_pending)
        try:
            yield entry
        finally:
            # Own rows were applied for this call only.
            for index, before in own:
                entry.session.set_link_state(index, before)


def _rebuild(
    fabric_id: int, topology_version: int | None, old: LiveFabric | None, own_pending: list[Pending]
) -> LiveFabric:
    fabric = Fabric.objects.get(pk=fabric_id)
    state = engine_fabric(fabric)
    session = state.session()
    pending = old.pending if old is not None else []
    # A link this transaction wrote twice: its committed state is the one before the first write,
    # and the row now carries the last write's version.
    committed: dict[int, StateName] = {}
    written: dict[int, int] = {}
    for pending_write in own_pending:
        for link_id, (version, before) in pending_write.before.items():
            committed.setdefault(link_id, before)
            written[link_id] = version
    watermark = 0
    for link_id, version in state.versions.items():
        if written.get(link_id) == version:
            session.set_link_state(state.link_index[link_id], committed[link_id])
        else:
            watermark = max(watermark, version)
    entry = LiveFabric(topology_version, fabric.capacity_constraint, state, session, watermark, pending)
    _entries[fabric_id] = entry
    return entry


def _sync(fabric_id: int, entry: LiveFabric, own_pending: list[Pending]) -> list[tuple[int, StateName]]:
    """Apply committed rows newer than the watermark for good; apply own rows for this call and
    return how to undo them: (engine index, state before)."""
    own_versions = {version for p in own_pending for version, _ in p.before.values()}
    rows = Link.objects.filter(fabric_id=fabric_id, state_version__gt=entry.watermark).values_list(
        "id", "admin_state", "oper_state", "state_version"
    )
    undo: list[tuple[int, StateName]] = []
    session = entry.session
    for link_id, admin_state, oper_state, version in rows.order_by("state_version"):
        index = entry.state.link_index.get(link_id)
        if index is None:  # a link created in this transaction: the next rebuild sees it
            continue
        wanted = engine_state(admin_state, oper_state)
        if version in own_versions:
            undo.append((index, session.link_state(index)))
        else:
            entry.watermark = max(entry.watermark, version)
        if session.link_state(index) != wanted:
            session.set_link_state(index, wanted)
    undo.reverse()
    return undo


def record(fabric_id: int, transaction_id: int, written: dict[int, tuple[int, StateName]]) -> None:
    """The guard wrote these links in transaction `transaction_id`: link id -> (version written,
    engine state before). Until it ends, calls in the same transaction see them as own rows."""
    if not written:
        return
    with _lock:
        entry = _entries.get(fabric_id)
        if entry is not None:
            entry.pending.append(Pending(transaction_id, dict(written)))
