from django.db import connection, transaction

from audit import services as audit

from ..models import Fabric, Link, Switch, Transceiver
from .corrupting import corrupting_in_service


def check_link_ends(lower_tier: int, upper_tier: int) -> str | None:
    """The one rule for where a link may go. Returns why the ends are invalid, or None."""
    if abs(upper_tier - lower_tier) != 1:
        return f"links must join adjacent tiers; these ends are on tiers {lower_tier} and {upper_tier}"
    return None


STATE_FIELDS = frozenset({"admin_state", "oper_state"})


def update_link(link: Link, changes: dict, user) -> Link:
    """Apply validated changes to a link's descriptive fields (length, fiber, speed, the note in
    admin_reason), audited. Its state changes only through the capacity guard
    (fabric.services.link_state)."""
    if STATE_FIELDS & set(changes):
        raise ValueError(f"link state changes go through fabric.services.link_state, not update_link: {changes}")
    before = audit.snapshot(link)
    for field, value in changes.items():
        setattr(link, field, value)
    link.full_clean(exclude=["fabric", "a_switch", "z_switch"])
    link.save(update_fields=list(changes))
    audit.record(user, audit.UPDATE, link, before=before)
    return link


def fabric_topology(fabric: Fabric) -> dict:
    """Switches and links in a compact form for drawing (two queries, no per-row objects)."""
    switches = [
        {"id": sid, "name": name, "tier": tier, "pod": pod, "plane": plane}
        for sid, name, tier, pod, plane in Switch.objects.filter(fabric=fabric)
        .order_by("tier", "pod", "plane", "name")
        .values_list("id", "name", "tier", "pod", "plane")
    ]
    links = [
        {"id": lid, "a": a, "z": z, "admin_state": admin, "oper_state": oper, "health": health}
        for lid, a, z, admin, oper, health in Link.objects.filter(fabric=fabric)
        .order_by("id")
        .values_list("id", "a_switch_id", "z_switch_id", "admin_state", "oper_state", "health")
    ]
    corrupting = corrupting_in_service(Link.objects.filter(fabric=fabric)).count()
    return {
        "fabric": fabric.pk,
        "tiers": list(fabric.tiers),
        "switches": switches,
        "links": links,
        "corrupting_in_service": corrupting,
    }


def delete_fabric(fabric: Fabric) -> None:
    """Delete a fabric and everything in it with three set-based statements.

    The ORM's cascade collector would load every switch, link and transceiver first (about
    ten seconds for the 100K-link fabric). Other apps' rows that hang off links (telemetry)
    carry ON DELETE CASCADE foreign keys in the database and go with them.
    """
    quote = connection.ops.quote_name
    transceivers, links, switches = (quote(m._meta.db_table) for m in (Transceiver, Link, Switch))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {transceivers} WHERE link_id IN (SELECT id FROM {links} WHERE fabric_id = %s)",  # noqa: S608
            [fabric.pk],
        )
        cursor.execute(f"DELETE FROM {links} WHERE fabric_id = %s", [fabric.pk])  # noqa: S608
        cursor.execute(f"DELETE FROM {switches} WHERE fabric_id = %s", [fabric.pk])  # noqa: S608
        fabric.delete()  # the rest (jobs pointing at it) follows the model's on_delete rules
