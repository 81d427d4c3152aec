"""The demo's circuit switches, demand and schedule: what the UI's journeys start from."""

import json
import time

import pytest
from django.conf import settings

from fabric import services as fabric_services
from jobs import services as jobs
from jobs.models import Job

from .. import demo
from ..models import CircuitSwitch, Demand

pytestmark = pytest.mark.django_db(databases=["default", "progress"])


def test_the_demo_attaches_every_tor_and_plans_moving_hot_pairs():
    document = json.loads((settings.REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text())
    fabric = fabric_services.import_document(document)
    started = time.perf_counter()
    demo.load(fabric)
    elapsed = time.perf_counter() - started
    demo.load(fabric)  # twice: nothing more
    # ocs-1 first by name (the circuits pages pick it), the Larry switch on pod 0 after it
    switches = CircuitSwitch.objects.filter(fabric=fabric).order_by("name")
    assert [(s.name, s.attachments.count()) for s in switches] == [("ocs-1", 32), ("ocs-larry", 8)]
    demand = Demand.objects.get(fabric=fabric)
    assert demand.window_count == demo.WINDOWS
    job = Job.objects.get(kind="circuits.schedule")
    assert jobs.run(job.pk) == "succeeded", Job.objects.get(pk=job.pk).error
    result = Job.objects.get(pk=job.pk).result
    names = [rack["name"] for rack in result["racks"]]
    before = {frozenset((names[c["a"]], names[c["b"]])) for c in result["slots"][0]["circuits"]}
    after = {frozenset((names[c["a"]], names[c["b"]])) for c in result["slots"][-1]["circuits"]}
    assert frozenset(("p0-tor0", "p2-tor0")) in before and before != after
    assert [row["algorithm"] for row in result["comparison"]] == ["exact", "greedy", "round_robin"]
    print(f"circuits demo loaded in {elapsed:.2f} s")
