"""Work orders opened before 0003 have no location ("Not recorded" on their page) until a regroup
gives them one, and an order in progress is never regrouped. This fills the location of every
order without one (location_side still blank: a location never recorded, unlike one whose link
was deleted since) by the rule the regroup uses.

Why it calls the regroup's own functions rather than a copy of the rule: where the work is
follows from the component each ticket's newest step asks to repair (a transceiver's end, a
breakout cable's breakout side, the line card's switch from the rule's evidence), and the
breakout side needs the component resolution (explicit groups, else the port rule in settings
PHYSICAL_COMPONENTS): a copy would be most of footprints.py and components.py, and would drift.
So the orders and steps are read through this migration's historical models, and the pure
functions turn them into the location: `footprints.repairs` (the set-based resolution, which
reads links by named columns only) and `work_orders.order_fields` (the lead repair), imported
when the migration runs, so that loading the migration graph imports no service. An order keeps
its action and footprint; only the three location fields are written.
"""

from django.db import migrations

LOCATION = ("location_link_id", "location_side", "location_both_ends")


def fill_locations(apps, schema_editor):
    WorkOrder = apps.get_model("maintenance", "WorkOrder")
    WorkOrderTicket = apps.get_model("maintenance", "WorkOrderTicket")
    TicketStep = apps.get_model("corruption", "TicketStep")
    unlocated = list(WorkOrder.objects.filter(location_side="").order_by("fabric_id", "id"))
    if not unlocated:
        return
    from maintenance.services.footprints import StepAdvice, repairs
    from maintenance.services.work_orders import order_fields

    # An open or in-progress order's tickets are its current entries; an ended order's, all it had.
    current: dict[int, set[int]] = {}
    ever: dict[int, set[int]] = {}
    for order_id, ticket_id, is_current in WorkOrderTicket.objects.filter(
        work_order_id__in=[order.pk for order in unlocated]
    ).values_list("work_order_id", "ticket_id", "current"):
        ever.setdefault(order_id, set()).add(ticket_id)
        if is_current:
            current.setdefault(order_id, set()).add(ticket_id)
    tickets_of = {order.pk: current.get(order.pk) or ever.get(order.pk, set()) for order in unlocated}
    newest = (
        TicketStep.objects.filter(ticket_id__in=set().union(*tickets_of.values()))
        .order_by("ticket_id", "-number")
        .distinct("ticket_id")
        .values_list("ticket_id", "ticket__link_id", "direction", "recommended_action", "rule", "evidence")
    )
    advice = {row[0]: StepAdvice(*row[:5], {"neighbours": (row[5] or {}).get("neighbours", [])}) for row in newest}
    for fabric_id in sorted({order.fabric_id for order in unlocated}):
        orders = [order for order in unlocated if order.fabric_id == fabric_id]
        asked = set().union(*(tickets_of[order.pk] for order in orders)) & advice.keys()
        found = {repair.ticket: repair for repair in repairs([advice[ticket] for ticket in sorted(asked)])}
        for order in orders:
            of_order = [found[ticket] for ticket in sorted(tickets_of[order.pk]) if ticket in found]
            if not of_order:
                continue  # no step left to say where (its tickets deleted with their link)
            fields = order_fields(of_order)
            WorkOrder.objects.filter(pk=order.pk).update(**{name: fields[name] for name in LOCATION})


class Migration(migrations.Migration):
    dependencies = [
        ("corruption", "0005_optimizer_job"),
        ("maintenance", "0003_work_order_location"),
    ]

    operations = [migrations.RunPython(fill_locations, migrations.RunPython.noop)]
