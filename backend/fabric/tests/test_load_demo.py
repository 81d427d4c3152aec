import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from fabric.models import Fabric
from jobs.models import Job

pytestmark = pytest.mark.django_db


def test_load_demo_refuses_outside_demo_mode(settings):
    settings.LIGHTPATH_DEMO = False
    with pytest.raises(CommandError, match="only in demo mode"):
        call_command("load_demo")
    assert not get_user_model().objects.filter(username="admin").exists()


def test_load_demo_is_safe_to_run_twice(settings):
    settings.LIGHTPATH_DEMO = True
    call_command("load_demo", verbosity=0)
    call_command("load_demo", verbosity=0)
    assert Fabric.objects.filter(name="demo-fb").count() == 1
    assert Job.objects.filter(kind="fabric.capacity_report").count() == 1
    admin = get_user_model().objects.get(username="admin")
    assert admin.check_password("lightpath-demo")
    assert list(admin.groups.values_list("name", flat=True)) == ["admin"]


def test_load_demo_brings_a_day_of_telemetry_with_corrupting_links(settings):
    from fabric.models import Link
    from telemetry.models import CorruptionEvent, EndState

    settings.LIGHTPATH_DEMO = True
    call_command("load_demo", verbosity=0)
    fabric = Fabric.objects.get(name="demo-fb")
    ends = EndState.objects.filter(link__fabric=fabric).count()
    assert ends == 2 * Link.objects.filter(fabric=fabric).count()
    corrupting = Link.objects.filter(fabric=fabric, health="corrupting").count()
    assert corrupting >= 5  # one fault of each root cause, a shared component spans several links
    assert Link.objects.filter(fabric=fabric, health="clean").count() > 100
    assert CorruptionEvent.objects.filter(link__fabric=fabric, ended_at__isnull=True).count() >= corrupting
    events = CorruptionEvent.objects.count()
    call_command("load_demo", verbosity=0)
    assert CorruptionEvent.objects.count() == events  # telemetry is loaded once


def test_load_demo_sets_its_down_links_down_through_telemetry(settings):
    from audit.models import AuditEvent
    from fabric.models import Link
    from lightpath_fixtures.canned import DEMO_DISABLED_LINKS, DEMO_DOWN_LINKS

    settings.LIGHTPATH_DEMO = True
    call_command("load_demo", verbosity=0)
    down = Link.objects.filter(fabric__name="demo-fb", oper_state="down").select_related("a_switch", "z_switch")
    pairs = {frozenset((link.a_switch.name, link.z_switch.name)): link for link in down}
    # The demo's down links, and its admin-disabled ones (a shut port is dark and reports down).
    assert set(pairs) == {frozenset(pair) for pair in (*DEMO_DOWN_LINKS, *DEMO_DISABLED_LINKS)}
    for link in down:
        assert link.oper_changed_at is not None  # set by derivation, not by the import
        notes = AuditEvent.objects.filter(object_type="fabric.link", object_id=link.pk).values_list("note", flat=True)
        assert any("telemetry" in note for note in notes)


def test_load_demo_opens_with_two_links_at_risk(settings, client_for):
    """Predictive optics (#19): the demo has a ToR receiver falling for four days (contamination,
    clean its connectors) and an ageing transmitter at a fabric switch (replace it), both forecast
    to cross their limit within the 7-day horizon, and neither corrupting yet."""
    from django.utils import timezone

    from fabric.models import Link
    from telemetry.models import LinkForecast

    settings.LIGHTPATH_DEMO = True
    loading = timezone.now().replace(second=0, microsecond=0)
    call_command("load_demo", verbosity=0)
    # Made when the demo loads, not when each link's trend bucket last closed (up to 6 h earlier:
    # trial 29 item 3, "forecast made 2 h ago" on a 5-minute-old demo).
    made = set(LinkForecast.objects.filter(fabric__name="demo-fb").values_list("computed_at", flat=True))
    assert len(made) == 1 and loading <= made.pop() <= timezone.now(), made
    at_risk = {
        forecast.cause: forecast
        for forecast in LinkForecast.objects.filter(fabric__name="demo-fb", at_risk=True).select_related("link")
    }
    assert set(at_risk) >= {"contamination", "decaying_transmitter"}, at_risk
    now = timezone.now()
    dirty, ageing = at_risk["contamination"], at_risk["decaying_transmitter"]
    assert (dirty.side, dirty.quantity, dirty.cause_side, dirty.limit_provenance) == ("a", "rx", "a", "catalog")
    assert now < dirty.crossing_at < now + dt.timedelta(days=3.5)
    assert (ageing.side, ageing.quantity, ageing.cause_side) == ("z", "tx", "z")
    assert now + dt.timedelta(days=2) < ageing.crossing_at < now + dt.timedelta(days=7)
    for forecast in (dirty, ageing):
        assert Link.objects.get(pk=forecast.link_id).health == "clean"
    listed = client_for("viewer").get("/api/links/", {"fabric": dirty.fabric_id, "at_risk": "true"}).json()
    assert {dirty.link_id, ageing.link_id} <= {row["id"] for row in listed["results"]}
