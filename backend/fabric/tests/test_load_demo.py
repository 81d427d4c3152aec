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
