"""A fabric's forecast settings (issue #19): the horizon (1..60 days, default 7) and the least
confidence (0.5..0.99, default 0.8) that make a link at risk, and whether preventive tickets open
by themselves (operators' and admins' call, like auto_restore)."""

import pytest

from fabric.models import Fabric
from fabric.tests.factories import FabricFactory

pytestmark = pytest.mark.django_db


def test_defaults_and_changes_by_whoever_edits_the_fabric(client_for):
    fabric = FabricFactory()
    url = f"/api/fabrics/{fabric.pk}/"
    shown = client_for("viewer").get(url).json()
    assert (shown["forecast_horizon_days"], shown["forecast_min_confidence"], shown["auto_preventive_tickets"]) == (
        7,
        0.8,
        False,
    )
    planner = client_for("planner")
    answer = planner.patch(url, {"forecast_horizon_days": 14, "forecast_min_confidence": 0.9}, format="json")
    assert answer.status_code == 200, answer.content
    fabric.refresh_from_db()
    assert (fabric.forecast_horizon_days, fabric.forecast_min_confidence) == (14, 0.9)


def test_out_of_range_settings_are_one_400_naming_each(client_for):
    fabric = FabricFactory()
    operator = client_for("operator")
    for horizon, confidence in ((0, 0.4), (61, 1.0), (-3, 0.995)):
        answer = operator.patch(
            f"/api/fabrics/{fabric.pk}/",
            {"forecast_horizon_days": horizon, "forecast_min_confidence": confidence},
            format="json",
        )
        assert answer.status_code == 400
        assert set(answer.json()) == {"forecast_horizon_days", "forecast_min_confidence"}, answer.json()
    assert Fabric.objects.get(pk=fabric.pk).forecast_horizon_days == 7


def test_only_operators_and_admins_turn_automatic_preventive_tickets_on(client_for):
    fabric = FabricFactory()
    url = f"/api/fabrics/{fabric.pk}/"
    answer = client_for("planner").patch(url, {"auto_preventive_tickets": True}, format="json")
    assert answer.status_code == 403 and "auto_preventive_tickets" in answer.json()["detail"]
    assert not Fabric.objects.get(pk=fabric.pk).auto_preventive_tickets
    assert client_for("operator").patch(url, {"auto_preventive_tickets": True}, format="json").status_code == 200
    assert Fabric.objects.get(pk=fabric.pk).auto_preventive_tickets
