from django.utils import timezone

from ..models import Fabric, Link, Switch


def check_link_ends(lower_tier: int, upper_tier: int) -> str | None:
    """The one rule for where a link may go. Returns why the ends are invalid, or None."""
    if abs(upper_tier - lower_tier) != 1:
        return f"links must join adjacent tiers; these ends are on tiers {lower_tier} and {upper_tier}"
    return None


def update_link(link: Link, changes: dict, user) -> Link:
    """Apply validated changes; a change of admin state records who made it and when."""
    new_admin_state = changes.get("admin_state", link.admin_state)
    if new_admin_state != link.admin_state:
        link.admin_changed_by = user if user is not None and user.is_authenticated else None
        link.admin_changed_at = timezone.now()
        if "admin_reason" not in changes:
            link.admin_reason = ""
    for field, value in changes.items():
        setattr(link, field, value)
    link.full_clean(exclude=["fabric", "a_switch", "z_switch"])
    link.save()
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
        {"id": lid, "a": a, "z": z, "admin_state": admin, "oper_state": oper}
        for lid, a, z, admin, oper in Link.objects.filter(fabric=fabric)
        .order_by("id")
        .values_list("id", "a_switch_id", "z_switch_id", "admin_state", "oper_state")
    ]
    return {"fabric": fabric.pk, "tiers": list(fabric.tiers), "switches": switches, "links": links}
