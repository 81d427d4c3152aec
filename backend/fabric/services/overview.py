"""What the switch and rack pages show (issue #20, "Object pages"): a switch's links with both
ends' racks, its capacity if it is a ToR, its open tickets and whether it is drained; a rack's
switches (`Switch.rack`), their links and open tickets.

"Drained" is what `POST /api/switches/{id}/drain/` does: links administratively disabled with a
reason that starts with "maintenance" (fabric.services.link_state.MAINTENANCE). A switch is
drained when some link of it is down for maintenance; `maintenance_links` says how many."""

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from corruption.models import Ticket

from ..models import Fabric, Link, Switch
from .capacity import tor_capacity
from .link_state import MAINTENANCE


def _links_of(switches: Q) -> QuerySet:
    return Link.objects.filter(switches).select_related("a_switch", "z_switch").order_by("a_switch__name", "a_port")


def drained() -> Exists:
    """Annotates switches: some link of it is down for maintenance (drained)."""
    return Exists(
        Link.objects.filter(Q(a_switch=OuterRef("pk")) | Q(z_switch=OuterRef("pk"))).filter(
            admin_state=Link.AdminState.DISABLED, admin_reason__startswith=MAINTENANCE
        )
    )


def _down_for_maintenance(link: Link) -> bool:
    return link.admin_state == Link.AdminState.DISABLED and link.admin_reason.startswith(MAINTENANCE)


def link_row(link: Link) -> dict:
    return {
        "id": link.pk,
        "name": str(link),
        "a_switch": link.a_switch_id,
        "a_switch_name": link.a_switch.name,
        "a_port": link.a_port,
        "a_rack": link.a_switch.rack,
        "z_switch": link.z_switch_id,
        "z_switch_name": link.z_switch.name,
        "z_port": link.z_port,
        "z_rack": link.z_switch.rack,
        "health": link.health,
        "admin_state": link.admin_state,
        "admin_reason": link.admin_reason,
        "oper_state": link.oper_state,
        "flapping": link.flapping,
        "down_for_maintenance": _down_for_maintenance(link),
    }


def _open_tickets(link_ids: list[int]) -> list[dict]:
    rows = (
        Ticket.objects.filter(link__in=link_ids)
        .exclude(state=Ticket.State.RESOLVED)
        .select_related("assignee", "link__a_switch", "link__z_switch")
        .order_by("-created", "-id")
    )
    return [
        {
            "id": ticket.pk,
            "kind": ticket.kind,
            "state": ticket.state,
            "link": ticket.link_id,
            "link_name": str(ticket.link),
            "assignee": ticket.assignee.username if ticket.assignee else None,
            "created": ticket.created,
        }
        for ticket in rows
    ]


def switch_overview(switch: Switch) -> dict:
    links = [link_row(link) for link in _links_of(Q(a_switch=switch) | Q(z_switch=switch))]
    maintenance = sum(row["down_for_maintenance"] for row in links)
    return {
        "id": switch.pk,
        "name": switch.name,
        "fabric": switch.fabric_id,
        "fabric_name": switch.fabric.name,
        "tier": switch.tier,
        "tier_name": tier_name(switch.fabric, switch.tier),
        "pod": switch.pod,
        "plane": switch.plane,
        "rack": switch.rack,
        "vendor": switch.vendor,
        "model": switch.model,
        "drained": maintenance > 0,
        "maintenance_links": maintenance,
        "usable_links": sum(row["admin_state"] == "enabled" and row["oper_state"] == "up" for row in links),
        "capacity": tor_capacity(switch),
        "links": links,
        "open_tickets": _open_tickets([row["id"] for row in links]),
    }


def tier_name(fabric: Fabric, tier: int) -> str:
    """The fabric's name of a tier ("tor", "spine"), or "tier N" beyond the names."""
    return fabric.tiers[tier] if tier < len(fabric.tiers) else f"tier {tier}"


def fabric_racks(fabric: Fabric) -> list[dict]:
    """Every rack of the fabric with how many switches it holds, by name."""
    rows = (
        Switch.objects.filter(fabric=fabric)
        .exclude(rack="")
        .values("rack")
        .annotate(switches=Count("id"), tors=Count("id", filter=Q(tier=0)))
        .order_by("rack")
    )
    return [{"rack": row["rack"], "switches": row["switches"], "tors": row["tors"]} for row in rows]


def rack_overview(fabric: Fabric, rack: str) -> dict | None:
    """The switches of one rack, their links and open tickets; None when no switch is in it."""
    switches = list(Switch.objects.filter(fabric=fabric, rack=rack).order_by("tier", "name"))
    if not switches:
        return None
    links = [link_row(link) for link in _links_of(Q(a_switch__in=switches) | Q(z_switch__in=switches))]
    here = {switch.pk for switch in switches}
    return {
        "fabric": fabric.pk,
        "fabric_name": fabric.name,
        "rack": rack,
        "switches": [
            {
                "id": switch.pk,
                "name": switch.name,
                "tier": switch.tier,
                "tier_name": tier_name(fabric, switch.tier),
                "pod": switch.pod,
                "links": sum(switch.pk in (row["a_switch"], row["z_switch"]) for row in links),
                "maintenance_links": sum(
                    row["down_for_maintenance"] and switch.pk in (row["a_switch"], row["z_switch"]) for row in links
                ),
            }
            for switch in switches
        ],
        "links": links,
        "links_leaving": sum(not ({row["a_switch"], row["z_switch"]} <= here) for row in links),
        "open_tickets": _open_tickets([row["id"] for row in links]),
    }
