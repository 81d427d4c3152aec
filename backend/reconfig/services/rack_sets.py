"""Larry rack sets built from a stored fabric's circuit switches (docs/reconfig.md, "Rack sets from
a stored fabric"), so that cables out of service are excluded from what the fabric says, not typed.

A reference `{"fabric": ID, "circuit_switches": [IDs]}` becomes the engine's rack-set document:
racks are the ToRs attached to the chosen switches (name order), cables[t][c] the ToR's attached
optical ports on switch c, R_c the switch's ports left once its attachments are served, C the
switches' circuit capacity, S the static uplinks every rack has, and `excluded` one [t, c] entry
per port the circuits app reports unavailable (circuits.services.port_states decides that).
"""

from __future__ import annotations

from typing import Any

from circuits.models import CircuitAttachment, CircuitSwitch
from circuits.services import port_states
from corruption.services import ADMIN_REASON as CORROPT_REASON
from fabric.models import Fabric, Link
from lightpath.problems import Problems, is_int, unknown_keys

REFERENCE_KEYS = {"fabric", "circuit_switches"}
TOR_TIER = 0
REASONS = {
    "disabled_by_corropt": "disabled by CorrOpt (corruption)",
    "disabled": "disabled by an operator",
    "down": "link down (failed optics or cabling)",
    "open_ticket": "under a repair ticket not yet resolved",
}


def is_reference(rack_set: Any) -> bool:
    """Whether a rack set names a stored fabric rather than giving the document inline."""
    return isinstance(rack_set, dict) and "fabric" in rack_set


def resolve(problems: Problems, spec: dict[str, Any], field: str = "rack_set") -> tuple[dict | None, dict | None]:
    """A reference checked (every problem listed) and built: (document, source), or (None, None)."""
    before = len(problems)
    unknown_keys(problems, spec, REFERENCE_KEYS, f"{field}.")
    fabric_id: Any = spec.get("fabric")
    fabric = None
    if not is_int(fabric_id):
        problems.add(f"{field}.fabric", f"must be a fabric id, got {fabric_id!r}")
    else:
        fabric = Fabric.objects.filter(pk=fabric_id).first()
        if fabric is None:
            problems.add(f"{field}.fabric", f"no fabric has id {fabric_id}")
    ids = spec.get("circuit_switches")
    if ids is not None and (not isinstance(ids, list) or not ids or not all(is_int(i) for i in ids)):
        problems.add(f"{field}.circuit_switches", "must be a non-empty list of circuit switch ids (or left out: all)")
        return None, None
    if ids is not None and len(set(ids)) != len(ids):
        problems.add(f"{field}.circuit_switches", "names a circuit switch twice")
    if fabric is None:
        known = set(CircuitSwitch.objects.filter(pk__in=ids or []).values_list("pk", flat=True))
        for i, switch_id in enumerate(ids or []):  # still list the ids that name nothing at all
            if switch_id not in known:
                problems.add(f"{field}.circuit_switches[{i}]", f"no circuit switch has id {switch_id}")
        return None, None
    if len(problems) > before:
        return None, None
    return rack_set_from_fabric(problems, fabric, ids, field)


def rack_set_from_fabric(
    problems: Problems, fabric: Fabric, circuit_switch_ids: list[int] | None, field: str = "rack_set"
) -> tuple[dict | None, dict | None]:
    """The engine's rack-set document of `fabric`'s chosen circuit switches (all when None) and
    what it was built from: switch names, every rack's static uplinks and each excluded cable
    with its reason. Problems (a switch of another fabric, no attached ToRs, no ports left for
    uplinks, mixed capacities) are added to `problems`; the document is then None."""
    before = len(problems)
    where: dict[int, str] = {}  # switch id -> the request field that named it
    if circuit_switch_ids is None:
        switches = list(CircuitSwitch.objects.filter(fabric=fabric).order_by("name"))
        where = {s.pk: f"{field}.circuit_switches" for s in switches}
        if not switches:
            problems.add(f"{field}.circuit_switches", f"fabric {fabric.name!r} has no circuit switches")
    else:
        found = {s.pk: s for s in CircuitSwitch.objects.filter(pk__in=circuit_switch_ids).select_related("fabric")}
        switches = []
        for i, switch_id in enumerate(circuit_switch_ids):
            where[switch_id] = f"{field}.circuit_switches[{i}]"
            switch = found.get(switch_id)
            if switch is None:
                problems.add(f"{field}.circuit_switches[{i}]", f"no circuit switch has id {switch_id}")
            elif switch.fabric_id != fabric.pk:
                problems.add(
                    f"{field}.circuit_switches[{i}]",
                    f"circuit switch {switch.name!r} belongs to fabric {switch.fabric.name!r}, not {fabric.name!r}",
                )
            else:
                switches.append(switch)
    attachments = list(
        CircuitAttachment.objects.filter(circuit_switch__in=switches).select_related("tor").order_by("tor__name")
    )
    by_switch: dict[int, list[CircuitAttachment]] = {s.pk: [] for s in switches}
    for attachment in attachments:
        by_switch[attachment.circuit_switch_id].append(attachment)
    for switch in switches:
        attached = sum(a.optical_ports for a in by_switch[switch.pk])
        if not by_switch[switch.pk]:
            problems.add(where[switch.pk], f"circuit switch {switch.name!r} has no attached ToRs")
        elif switch.port_count - attached <= 0:
            problems.add(
                where[switch.pk],
                f"circuit switch {switch.name!r}: its {switch.port_count} ports all serve attached ToRs, "
                "none is left for uplinks to aggregation (R = 0)",
            )
    capacities = sorted({s.capacity_gbps for s in switches})
    if len(capacities) > 1:
        problems.add(
            f"{field}.circuit_switches",
            f"Larry uses one circuit capacity C; these switches have {', '.join(f'{c:g}' for c in capacities)} Gb/s",
        )
    if len(problems) > before:
        return None, None

    tors = sorted({a.tor for a in attachments}, key=lambda tor: tor.name)
    rack_of = {tor.pk: t for t, tor in enumerate(tors)}
    switch_of = {s.pk: c for c, s in enumerate(switches)}
    cables = [[0] * len(switches) for _ in tors]
    for attachment in attachments:
        cables[rack_of[attachment.tor_id]][switch_of[attachment.circuit_switch_id]] = attachment.optical_ports

    states = port_states(attachments)
    lost = [(a, entry) for a in attachments for entry in states[a.pk].unavailable]
    admin_reasons = dict(Link.objects.filter(pk__in=[e["link"] for _, e in lost]).values_list("pk", "admin_reason"))
    excluded, excluded_cables = [], []
    for attachment, entry in sorted(lost, key=lambda pair: (rack_of[pair[0].tor_id], pair[1]["link"])):
        reason = entry["reason"]
        if reason == "disabled" and admin_reasons.get(entry["link"]) == CORROPT_REASON:
            reason = "disabled_by_corropt"
        t, c = rack_of[attachment.tor_id], switch_of[attachment.circuit_switch_id]
        excluded.append([t, c])
        excluded_cables.append(
            {
                "tor": t,
                "cs": c,
                "rack": attachment.tor.name,
                "circuit_switch": switches[c].name,
                "link": entry["link"],
                "reason": reason,
                "explanation": REASONS[reason],
            }
        )

    static = static_uplinks(fabric, tors, attachments)
    document = {
        "static_uplinks": min(static),
        "cables": cables,
        "cs_uplinks": [s.port_count - sum(a.optical_ports for a in by_switch[s.pk]) for s in switches],
        "capacity_gbps": capacities[0],
        "excluded": excluded,
        "racks": [tor.name for tor in tors],
    }
    source = {
        "fabric": {"id": fabric.pk, "name": fabric.name},
        "circuit_switches": [{"id": s.pk, "name": s.name} for s in switches],
        "static_uplinks_per_rack": static,
        "excluded_cables": excluded_cables,
    }
    return document, source


def static_uplinks(fabric: Fabric, tors: list, attachments: list[CircuitAttachment]) -> list[int]:
    """Per ToR, its enabled and up links to tier 1 in the packet fabric, leaving out the links that
    carry one of its circuit-switch ports (those are circuit cables, not static uplinks)."""
    circuit_links = set(
        CircuitAttachment.links.through.objects.filter(
            circuitattachment_id__in=[a.pk for a in attachments]
        ).values_list("link_id", flat=True)
    )
    counts = dict.fromkeys((tor.pk for tor in tors), 0)
    usable = (
        Link.objects.filter(fabric=fabric, a_switch_id__in=counts, z_switch__tier=TOR_TIER + 1)
        .filter(admin_state=Link.AdminState.ENABLED, oper_state=Link.OperState.UP)
        .exclude(pk__in=circuit_links)
        .values_list("a_switch_id", flat=True)
    )
    for tor_id in usable:
        counts[tor_id] += 1
    return [counts[tor.pk] for tor in tors]
