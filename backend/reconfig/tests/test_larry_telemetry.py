"""larry.run with counters read from a stored fabric's telemetry: each rack's traffic is its ToR's
uplink packet counters, aligned on a grid of the period."""

import datetime as dt

import pytest
from django.utils import timezone

from jobs import services
from jobs.models import Job
from telemetry.services.ingest import ingest

DBS = ["default", "progress"]
PERIOD = 900.0
BYTES_PER_PACKET = 1500
# The small fabric's ToRs t0, t1, t2 each have uplinks up0 and up1 (side A of their links).
RACK_SET = {
    "static_uplinks": 1,
    "cables": [[2, 2], [2, 2], [2, 2]],
    "cs_uplinks": [2, 2],
    "capacity_gbps": 100,
    "racks": ["t0", "t1", "t2"],
}


def packets_per_poll(gbps: float) -> int:
    """Packets one uplink carries in a poll when its ToR moves `gbps` over its two uplinks."""
    return round(gbps * 1e9 / 8 * PERIOD / BYTES_PER_PACKET / 2)


def poll_samples(start, polls, rates, *, reset_at=None, skew_s=0.0):
    """Cumulative in/out packet counters of every ToR uplink, every 15 minutes (+ skew for up1)."""
    samples = []
    for tor, gbps in rates.items():
        for port in ("up0", "up1"):
            count = 0
            for i in range(polls):
                if i == reset_at and tor == "t1" and port == "up0":
                    count = 0  # the device restarted: its counters begin again
                at = start + dt.timedelta(seconds=i * PERIOD + (skew_s if port == "up1" else 0.0))
                samples.append({"switch": tor, "port": port, "time": at, "in_pkts": count, "out_pkts": count // 10})
                count += packets_per_poll(gbps)
    return samples


def window(start, polls):
    return {
        "source": "telemetry",
        "from": start.isoformat(),
        "to": (start + dt.timedelta(seconds=(polls - 1) * PERIOD + 60)).isoformat(),
        "bytes_per_packet": BYTES_PER_PACKET,
    }


def submit(client, fabric, counters, rack_set=RACK_SET):
    return client.post(
        "/api/jobs/",
        {"kind": "larry.run", "fabric": None if fabric is None else fabric.pk,
         "params": {"rack_set": rack_set, "counters": counters}},
        format="json",
    )  # fmt: skip


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_hot_rack_seen_in_telemetry_borrows_uplinks(client_for, small_fabric):
    start = (timezone.now() - dt.timedelta(hours=6)).replace(minute=0, second=0, microsecond=0)
    polls = 8
    ingest(small_fabric, poll_samples(start, polls, {"t0": 300.0, "t1": 10.0, "t2": 10.0}, reset_at=4, skew_s=30))
    response = submit(client_for("operator"), small_fabric, window(start, polls))
    assert response.status_code == 202, response.json()
    assert services.run(response.json()["id"]) == "succeeded", Job.objects.get(pk=response.json()["id"]).error
    result = Job.objects.get(pk=response.json()["id"]).result
    series = result["series"]
    # up1 reports 30 s after each grid point, so the first point is the second poll time
    assert series["time_s"][0] == 2 * PERIOD
    demand = series["demand_gbps"]
    assert demand[0] == pytest.approx([300.0, 10.0, 10.0], rel=1e-3)
    # the reset interval of t1 loses that poll's traffic but never goes negative
    assert all(point[1] >= 0 for point in demand)
    assert min(point[1] for point in demand) == pytest.approx(5.0, rel=1e-3)  # one of its two uplinks lost
    assert result["inputs"]["period_s"] == PERIOD
    assert result["inputs"]["counters"]["source"] == "telemetry"
    assert result["changes"][0]["uplinks"][0] > result["initial_uplinks"][0]


@pytest.mark.django_db
def test_telemetry_counters_are_checked_at_submission(client_for, small_fabric):
    start = timezone.now() - dt.timedelta(hours=2)
    rack_set = {**RACK_SET, "racks": ["t0", "f0", "nowhere"]}
    response = submit(client_for("planner"), small_fabric, {**window(start, 4), "to": "2026-13-01T00:00:00Z"}, rack_set)
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [
        "counters.to",
        "rack_set.racks[1]",
        "rack_set.racks[2]",
    ]
    response = submit(client_for("planner"), None, window(start, 4))
    assert [e["field"] for e in response.json()["errors"]] == ["fabric"]


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_rack_without_counters_fails_the_job_by_name(client_for, small_fabric):
    start = (timezone.now() - dt.timedelta(hours=6)).replace(minute=0, second=0, microsecond=0)
    ingest(small_fabric, poll_samples(start, 3, {"t0": 10.0, "t1": 10.0}))
    response = submit(client_for("planner"), small_fabric, window(start, 3))
    assert services.run(response.json()["id"]) == "failed"
    assert "no uplink counter samples in the window for t2" in Job.objects.get(pk=response.json()["id"]).error


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_window_left_out_is_the_counters_range(client_for, small_fabric):
    """From and To left out (the form's fields left empty): the racks' counters from first to last
    sample, stored in the job so a rerun reads the same window; no counters at all is said."""
    client = client_for("planner")
    counters = {"source": "telemetry", "bytes_per_packet": BYTES_PER_PACKET}
    response = submit(client, small_fabric, counters)
    assert response.status_code == 400
    assert [(e["field"], e["message"]) for e in response.json()["errors"]] == [
        (
            "counters.from",
            f"fabric {small_fabric.name!r} has no uplink counter samples of these racks: give from and to",
        )
    ]
    start = (timezone.now() - dt.timedelta(hours=6)).replace(minute=0, second=0, microsecond=0)
    ingest(small_fabric, poll_samples(start, 8, {"t0": 300.0, "t1": 10.0, "t2": 10.0}))
    response = submit(client, small_fabric, counters)
    assert response.status_code == 202, response.json()
    job = Job.objects.get(pk=response.json()["id"])
    window = job.params["counters"]
    assert dt.datetime.fromisoformat(window["from"]) == start
    assert dt.datetime.fromisoformat(window["to"]) == start + dt.timedelta(seconds=7 * PERIOD)
    assert services.run(job.pk) == "succeeded", Job.objects.get(pk=job.pk).error
    assert Job.objects.get(pk=job.pk).result["series"]["demand_gbps"][0] == pytest.approx([300.0, 10.0, 10.0], rel=1e-3)
    # only To given: From is the first sample within it
    to = (start + dt.timedelta(seconds=3 * PERIOD)).isoformat()
    response = submit(client, small_fabric, {**counters, "to": to})
    assert response.status_code == 202, response.json()
    assert Job.objects.get(pk=response.json()["id"]).params["counters"]["from"] == start.isoformat()
