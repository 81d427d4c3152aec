"""Migration maintenance 0004 (trial item 17d): work orders opened before 0003 recorded no location
and read "Not recorded" until a regroup, and an order in progress is never regrouped; the
migration gives each the location a regroup gives, and leaves alone an order whose location link
was deleted since. django-test-migrations is not installed: the migration's function runs on rows
as the regroup made them, with their location wiped as before 0003."""

import importlib

import pytest
from django.apps import apps

from corruption.models import TicketStep
from maintenance.models import WorkOrder
from maintenance.services import work_orders

from .plan_setup import cable_order

pytestmark = pytest.mark.django_db
migration = importlib.import_module("migrations.maintenance.0004_fill_work_order_locations")


def recommend(order: WorkOrder, action: str) -> WorkOrder:
    """The order's ticket now asks for `action`; the regroup brings the order up to date."""
    step = TicketStep.objects.filter(ticket__work_order_entries__work_order=order).order_by("-number").first()
    assert step is not None
    TicketStep.objects.filter(pk=step.pk).update(recommended_action=action)
    work_orders.regroup(order.fabric_id)
    return WorkOrder.objects.get(pk=order.pk)


def test_orders_without_a_location_get_the_regroups_and_a_deleted_link_stays_unknown(demo, client_for):
    cable = cable_order(demo, "p2-fab0")
    far = recommend(cable_order(demo, "p1-fab2"), "replace_far_transceiver")
    started = recommend(cable_order(demo, "p2-fab2"), "reseat_transceiver")
    WorkOrder.objects.filter(pk=started.pk).update(state=WorkOrder.State.IN_PROGRESS)
    gone = cable_order(demo, "p1-fab0")
    client = client_for("viewer")

    def where(order: WorkOrder):
        return client.get(f"/api/work-orders/{order.pk}/").json()["location"]

    located = {order.pk: where(order) for order in (cable, far, started)}
    # Three rules (the links corrupt a to z, so z is the near end): a breakout cable at its breakout
    # side with its far end, the far (a) end's transceiver, the near (z) end's transceiver.
    assert (located[cable.pk]["switch"], located[cable.pk]["far"]["switch"]) == ("p2-fab0", "pl0-spine0")
    assert (located[far.pk]["switch"], located[far.pk]["far"]) == ("p1-fab2", None)
    assert (located[started.pk]["switch"], located[started.pk]["far"]) == ("pl2-spine0", None)

    # As before 0003: nothing recorded.
    WorkOrder.objects.exclude(pk=gone.pk).update(location_link=None, location_side="", location_both_ends=False)
    # An order whose location link was deleted since (its end is still recorded).
    WorkOrder.objects.filter(pk=gone.pk).update(location_link=None)
    assert [where(order) for order in (cable, far, started, gone)] == [None] * 4

    migration.fill_locations(apps, None)

    assert {order.pk: where(order) for order in (cable, far, started)} == located
    assert where(gone) is None
    # Only where the work is was written: the in-progress order is still in progress.
    assert WorkOrder.objects.get(pk=started.pk).state == WorkOrder.State.IN_PROGRESS
