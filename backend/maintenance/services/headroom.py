"""The fabric's capacity headroom over a planned day (issue #18, "capacity headroom over the day"):
the shift cut where a visit starts or ends, and for each piece the ToR with the least spare
up-paths while the visits then in progress have their footprints down and their restorations up.

One engine evaluate per distinct set of visits in progress (the set repeats when one visit ends as
another with the same links starts elsewhere); ToRs the visits don't touch keep the spare they have
now, read once from `tor_paths()`, so a piece costs the evaluate plus the few ToRs it changes.

Spare is measured against the capacity guard's floor, min(required, paths now): a ToR already under
its requirement before any work has spare 0 and no visit may take it lower. Such ToRs are listed
once (`short_before`) and are no interval's worst unless a visit then changes them: being short is
not the plan's doing, and it would paint every interval red. An interval with no visit in progress
has no worst ToR (nothing of the plan's is down).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import lightpath_engine
from fabric.services.engine import EngineFabric, StateName


def _changes(state: EngineFabric, visits: Iterable[Mapping[str, Any]]) -> list[tuple[int, StateName]]:
    """The visits' footprints disabled and their restorations enabled, as one set of engine
    changes; a link down for one visit stays down even if another's restoration names it."""
    down = {pk for visit in visits for pk in visit["links_down"] if pk in state.link_index}
    up = {pk for visit in visits for pk in visit["restored"] if pk in state.link_index} - down
    disabled: list[tuple[int, StateName]] = [(state.link_index[pk], "disabled") for pk in sorted(down)]
    return disabled + [(state.link_index[pk], "enabled") for pk in sorted(up)]


def short_before(state: EngineFabric, session: lightpath_engine.CorrOptSession) -> list[dict[str, Any]]:
    """The ToRs under their requirement before any work: {id, name, paths, required_paths}."""
    return [
        {"id": state.switch_ids[tor], "name": state.switch_names[tor], "paths": paths, "required_paths": required}
        for tor, paths, _design, required in session.tor_paths()
        if paths < required
    ]


def headroom(
    state: EngineFabric,
    session: lightpath_engine.CorrOptSession,
    visits: Sequence[Mapping[str, Any]],
    shift_s: int,
) -> list[dict[str, Any]]:
    """Intervals in time order covering [0, shift_s]: {start_s, end_s, worst_tor {id, name} | None,
    spare_paths (over the floor), paths, required_paths, visits: [work order ids in progress]}.
    `visits` are the planner's (link ids in links_down and restored); the session is left as it was."""
    now = {tor: (available, required) for tor, available, _design, required in session.tor_paths()}
    floor = {tor: min(available, required) for tor, (available, required) in now.items()}
    # ToRs at or over their requirement by spare now, least first (switch order on ties): the worst
    # the visits leave untouched is the first of these an interval's evaluate does not name.
    by_spare = sorted(
        (tor for tor in now if now[tor][0] >= now[tor][1]), key=lambda tor: (now[tor][0] - now[tor][1], tor)
    )
    cuts = sorted({0, shift_s, *(t for v in visits for t in (v["start_s"], v["end_s"]) if 0 < t < shift_s)})
    verdicts: dict[frozenset[int], dict[int, tuple[int, int]]] = {}
    intervals: list[dict[str, Any]] = []
    by_start = sorted(visits, key=lambda v: v["start_s"])
    running: dict[int, Mapping[str, Any]] = {}
    started = 0
    for start_s, end_s in itertools.pairwise(cuts):
        # Every start and end inside the shift is a cut: a visit runs through [start_s, end_s) iff
        # it started by start_s and ends after it.
        while started < len(by_start) and by_start[started]["start_s"] <= start_s:
            running[by_start[started]["work_order"]] = by_start[started]
            started += 1
        running = {pk: v for pk, v in running.items() if v["end_s"] > start_s}
        key = frozenset(running)
        if key not in verdicts:
            changes = _changes(state, running.values())
            affected = session.evaluate(changes)["affected"] if changes else []
            verdicts[key] = {i["tor"]: (i["paths_after"], i["required_paths"]) for i in affected}
        changed = verdicts[key]
        candidates = [(paths - floor[tor], tor, paths, required) for tor, (paths, required) in changed.items()]
        untouched = next((tor for tor in by_spare if tor not in changed), None)
        if untouched is not None:
            paths, required = now[untouched]
            candidates.append((paths - required, untouched, paths, required))
        worst = min(candidates, default=None) if running else None
        order_ids = sorted(key)
        if intervals and intervals[-1]["visits"] == order_ids:
            intervals[-1]["end_s"] = end_s  # the same visits in progress: one interval
            continue
        intervals.append(
            {
                "start_s": start_s,
                "end_s": end_s,
                "worst_tor": None
                if worst is None
                else {"id": state.switch_ids[worst[1]], "name": state.switch_names[worst[1]]},
                "spare_paths": None if worst is None else worst[0],
                "paths": None if worst is None else worst[2],
                "required_paths": None if worst is None else worst[3],
                "visits": order_ids,
            }
        )
    return intervals
