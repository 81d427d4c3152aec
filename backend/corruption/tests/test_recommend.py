"""Repair recommendations (corruption.recommend) on telemetry generated for each root cause.

Every test imports demo-fb (catalog Rx/Tx limits per transceiver model), generates two or three
hours of telemetry with one fault placed on a chosen link, ingests it for real, and checks that
the recommendation is the fix Table 3.2 gives for that cause. p0-fab0's eth1/1..eth1/8 face
p0-tor0..p0-tor7 (all enabled), two breakout groups of one line card.
"""

import datetime as dt
import json
from pathlib import Path

import pytest
from django.utils import timezone

from corruption.recommend import Action, HistoryStep, breakout_group, line_card, recommend
from fabric import services as fabric_services
from fabric.models import Link, Transceiver
from lightpath_fixtures.documents import read_document
from lightpath_fixtures.telemetry import FaultSpec, generate_telemetry
from telemetry.models import CorruptionEvent, EndState
from telemetry.services.ingest import ingest

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "data" / "demo-fb.json"
OPTICAL_KEYS = (
    "input_power_dbm",
    "output_power_dbm",
    "input_power_channels_dbm",
    "output_power_channels_dbm",
    "laser_bias_current_ma",
    "laser_bias_current_channels_ma",
    "temperature_c",
    "supply_voltage_v",
)


@pytest.fixture
def demo():
    doc = read_document(DEMO)
    return fabric_services.import_document(doc), doc


def start_time(hours: float) -> dt.datetime:
    """A range that ends in the past, so no sample is refused as from the future."""
    return (timezone.now() - dt.timedelta(hours=hours + 1)).replace(minute=0, second=0, microsecond=0)


def run(demo, faults, *, hours=2.0, seed=1, edit=None):
    """Generate, optionally edit each sample (None drops it), and ingest in time order in batches
    of <= 50,000."""
    fabric, doc = demo
    telemetry = generate_telemetry(
        doc, start=start_time(hours), hours=hours, seed=seed, faults=faults, congested_fraction=0.0
    )
    samples = [sample for sample in (edit(s) if edit else s for s in telemetry) if sample is not None]
    for first in range(0, len(samples), 50_000):
        ingest(fabric, samples[first : first + 50_000], derive=True)
    return telemetry


def onset(minutes: int, hours: float = 2.0) -> dt.datetime:
    return start_time(hours) + dt.timedelta(minutes=minutes)


def link_at(demo, a_end: str) -> Link:
    switch, port = a_end.split(":")
    return Link.objects.get(fabric=demo[0], a_switch__name=switch, a_port=port)


def fault(kind: str, link: str = "p0-tor0:eth2/1", direction: str | None = "a_to_z", **fields) -> FaultSpec:
    fields.setdefault("onset", onset(30))
    fields.setdefault("loss_rate", 1e-4)
    return FaultSpec(kind, link=link, direction=direction, **fields)


def failed(action: Action, minutes_ago: int = 60) -> HistoryStep:
    return HistoryStep(action, action, timezone.now() - dt.timedelta(minutes=minutes_ago), "recurred")


class TestRulesPerRootCause:
    def test_dirty_connector_cleans_the_fiber(self, demo):
        run(demo, [fault("dirty_connector")])
        rec = recommend(link_at(demo, "p0-tor0:eth2/1"), "a_to_z")
        assert (rec.action, rec.rule) == (Action.CLEAN_FIBER, "local_rx_low")
        rx_z = EndState.objects.get(link=link_at(demo, "p0-tor0:eth2/1"), side="z").input_power_min_channel_dbm
        # Powers as the UI writes them, with the true minus sign (trial 30: a hyphen beside the evidence's minus).
        rx_z_text = f"{rx_z:.1f}".replace("-", "\N{MINUS SIGN}")
        assert rec.explanation == (
            f"Rx at Z is {rx_z_text} dBm, below the 100G-SR4 minimum of \N{MINUS SIGN}10.3 dBm (catalog): "
            "clean both ends of the fiber."
        )

    def test_bent_fiber_corrupting_both_ways_replaces_the_cable(self, demo):
        run(demo, [fault("bent_fiber", direction=None)])
        rec = recommend(link_at(demo, "p0-tor0:eth2/1"), "z_to_a")
        assert (rec.action, rec.rule) == (Action.REPLACE_CABLE, "opposite_direction")
        assert rec.evidence["rates"]["opposite_corrupting"] is True

    def test_bent_fiber_corrupting_one_way_replaces_the_cable_on_both_rx_low(self, demo):
        # Only 8% of corrupting links corrupt both ways: A's receiver counts no FCS error here.
        def quiet_a_receiver(sample):
            if (sample["switch"], sample["port"]) == ("p0-tor0", "eth2/1") and "in_fcs_errors" in sample:
                sample["in_fcs_errors"] = 0
            return sample

        run(demo, [fault("bent_fiber", direction=None)], edit=quiet_a_receiver)
        rec = recommend(link_at(demo, "p0-tor0:eth2/1"), "a_to_z")
        assert (rec.action, rec.rule) == (Action.REPLACE_CABLE, "both_rx_low")
        assert rec.evidence["rates"]["opposite_corrupting"] is False
        assert rec.evidence["optics"]["local"]["rx_low"] and rec.evidence["optics"]["far"]["rx_low"]

    def test_decaying_transmitter_replaces_the_far_transceiver(self, demo):
        run(demo, [fault("decaying_transmitter")])
        rec = recommend(link_at(demo, "p0-tor0:eth2/1"), "a_to_z")
        assert (rec.action, rec.rule) == (Action.REPLACE_FAR_TRANSCEIVER, "far_tx_low")
        assert rec.evidence["far_end"] == "a"
        assert rec.explanation.startswith("Tx at A is ")
        assert "at or below the 100G-SR4 minimum" in rec.explanation
        assert rec.explanation.endswith("replace the transceiver at A (p0-tor0:eth2/1).")

    def test_loose_transceiver_is_reseated(self, demo):
        run(demo, [fault("loose_transceiver")])
        rec = recommend(link_at(demo, "p0-tor0:eth2/1"), "a_to_z")
        assert (rec.action, rec.rule) == (Action.RESEAT_TRANSCEIVER, "reseat")
        assert "the transceiver at Z (p0-fab0:eth1/1) was not reseated recently" in rec.explanation

    def test_shared_breakout_replaces_the_shared_component(self, demo):
        run(demo, [FaultSpec("shared_component", link="p0-fab0:eth1/1", component="breakout", onset=onset(30))])
        rec = recommend(link_at(demo, "p0-tor1:eth2/1"), "a_to_z")  # p0-fab0:eth1/2
        assert (rec.action, rec.rule) == (Action.REPLACE_SHARED_COMPONENT, "shared_component.breakout")
        local = rec.evidence["neighbours"][0]
        assert (local["end"], local["switch"]) == ("z", "p0-fab0")
        assert sorted(n["port"] for n in local["links"]) == ["eth1/1", "eth1/3", "eth1/4"]
        assert all(n["same_breakout_group"] for n in local["links"])

    def test_shared_line_card_is_a_cluster_on_one_switch(self, demo):
        run(demo, [FaultSpec("shared_component", link="p0-fab0:eth1/1", component="linecard", onset=onset(30))])
        # Breakout groups of one port: only the cluster rule can see the line card.
        rec = recommend(link_at(demo, "p0-tor5:eth2/1"), "a_to_z", settings={"breakout_group_size": 1})
        assert (rec.action, rec.rule) == (Action.REPLACE_SHARED_COMPONENT, "shared_component.cluster")
        counted = [n for n in rec.evidence["neighbours"][0]["links"] if n["onset_within_window"]]
        assert len(counted) == 7 and all(n["rate_within_ratio"] and n["same_line_card"] for n in counted)


class TestNeighbours:
    def test_a_single_unrelated_port_on_the_switch_is_no_shared_component(self, demo):
        run(demo, [fault("loose_transceiver"), fault("loose_transceiver", link="p0-tor4:eth2/1")])
        rec = recommend(link_at(demo, "p0-tor0:eth2/1"), "a_to_z")
        assert (rec.action, rec.rule) == (Action.RESEAT_TRANSCEIVER, "reseat")
        assert [n["port"] for n in rec.evidence["neighbours"][0]["links"]] == ["eth1/5"]

    def test_other_ports_far_apart_in_onset_or_rate_are_no_cluster(self, demo):
        hours = 3.5
        run(
            demo,
            [
                fault("loose_transceiver", onset=onset(30, hours)),
                fault("loose_transceiver", link="p0-tor4:eth2/1", onset=onset(30, hours)),
                fault("loose_transceiver", link="p0-tor5:eth2/1", onset=onset(30, hours), loss_rate=1e-2),
                fault("loose_transceiver", link="p0-tor6:eth2/1", onset=onset(150, hours)),
            ],
            hours=hours,
        )
        uplink = link_at(demo, "p0-tor0:eth2/1")
        rec = recommend(uplink, "a_to_z")
        assert (rec.action, rec.rule) == (Action.RESEAT_TRANSCEIVER, "reseat")
        by_port = {n["port"]: n for n in rec.evidence["neighbours"][0]["links"]}
        assert by_port["eth1/5"]["onset_within_window"] and by_port["eth1/5"]["rate_within_ratio"]
        assert not by_port["eth1/6"]["rate_within_ratio"]  # 100x this link's rate
        assert not by_port["eth1/7"]["onset_within_window"]  # two hours later
        # The same links do form a cluster once the window and ratio are wide enough.
        wide = recommend(uplink, "a_to_z", settings={"cluster_onset_window_s": 3 * 3600, "cluster_rate_ratio": 1000})
        assert (wide.action, wide.rule) == (Action.REPLACE_SHARED_COMPONENT, "shared_component.cluster")


class TestReseatAndHistory:
    def test_a_transceiver_reseated_within_seven_days_is_replaced(self, demo):
        run(demo, [fault("loose_transceiver")])
        uplink = link_at(demo, "p0-tor0:eth2/1")
        local = Transceiver.objects.get(link=uplink, side="z")
        local.last_reseated_at = timezone.now() - dt.timedelta(days=6)
        local.save()
        rec = recommend(uplink, "a_to_z")
        assert (rec.action, rec.rule) == (Action.REPLACE_TRANSCEIVER, "reseated_recently")
        assert rec.evidence["reseat"]["source"] == "transceiver" and rec.evidence["reseat"]["recent"]

        local.last_reseated_at = timezone.now() - dt.timedelta(days=8)
        local.save()
        assert recommend(uplink, "a_to_z").action == Action.RESEAT_TRANSCEIVER
        # A far-end reseat is not the local transceiver's.
        Transceiver.objects.filter(link=uplink, side="a").update(last_reseated_at=timezone.now())
        assert recommend(uplink, "a_to_z").action == Action.RESEAT_TRANSCEIVER

    def test_a_reseat_logged_in_the_episode_is_not_repeated(self, demo):
        run(demo, [fault("loose_transceiver")])
        uplink = link_at(demo, "p0-tor0:eth2/1")
        event = CorruptionEvent.objects.get(link=uplink, direction="a_to_z", ended_at__isnull=True)
        # Logged ten days before `now`, but after the episode began.
        later = event.first_seen + dt.timedelta(days=10, minutes=5)
        step = {
            "action_recommended": "reseat_transceiver",
            "action_taken": "reseat_transceiver",
            "time": event.first_seen,
        }
        rec = recommend(uplink, "a_to_z", history=[step], now=later)
        assert (rec.action, rec.rule) == (Action.REPLACE_TRANSCEIVER, "reseated_recently")
        assert rec.evidence["reseat"]["source"] == "history"
        # The same reseat before the episode and over seven days ago no longer counts.
        step["time"] = event.first_seen - dt.timedelta(minutes=5)
        assert recommend(uplink, "a_to_z", history=[step], now=later).action == Action.RESEAT_TRANSCEIVER

    def test_a_failed_clean_escalates_to_a_reseat_then_a_replacement(self, demo):
        run(demo, [fault("dirty_connector")])
        uplink = link_at(demo, "p0-tor0:eth2/1")
        not_taken = HistoryStep("clean_fiber", None, timezone.now() - dt.timedelta(hours=1), "recurred")
        assert recommend(uplink, "a_to_z", history=[not_taken]).action == Action.CLEAN_FIBER

        rec = recommend(uplink, "a_to_z", history=[failed(Action.CLEAN_FIBER)])
        assert (rec.action, rec.rule) == (Action.RESEAT_TRANSCEIVER, "escalation.clean_fiber")
        assert rec.explanation.startswith("Cleaning the fiber was done and corruption returned")

        history = [failed(Action.CLEAN_FIBER, 120), failed(Action.RESEAT_TRANSCEIVER, 60)]
        rec = recommend(uplink, "a_to_z", history=history)
        assert (rec.action, rec.rule) == (Action.REPLACE_TRANSCEIVER, "escalation.reseat_transceiver")
        # The local Rx is still low after a new local optic: the fiber path is left.
        history.append(failed(Action.REPLACE_TRANSCEIVER, 30))
        assert recommend(uplink, "a_to_z", history=history).action == Action.REPLACE_CABLE

    def test_a_failed_clean_with_both_rx_low_escalates_to_the_cable(self, demo):
        def quiet_a_receiver(sample):
            if (sample["switch"], sample["port"]) == ("p0-tor0", "eth2/1") and "in_fcs_errors" in sample:
                sample["in_fcs_errors"] = 0
            return sample

        run(demo, [fault("bent_fiber", direction=None)], edit=quiet_a_receiver)
        # A technician cleaned instead of replacing the cable; the next step is the cable.
        rec = recommend(link_at(demo, "p0-tor0:eth2/1"), "a_to_z", history=[failed(Action.CLEAN_FIBER)])
        assert rec.action == Action.REPLACE_CABLE

    def test_a_failed_reseat_escalates_to_replacing_then_the_far_end(self, demo):
        run(demo, [fault("loose_transceiver")])
        uplink = link_at(demo, "p0-tor0:eth2/1")
        rec = recommend(uplink, "a_to_z", history=[failed(Action.RESEAT_TRANSCEIVER)])
        assert rec.action == Action.REPLACE_TRANSCEIVER
        history = [failed(Action.RESEAT_TRANSCEIVER, 120), failed(Action.REPLACE_TRANSCEIVER, 60)]
        rec = recommend(uplink, "a_to_z", history=history)
        assert (rec.action, rec.rule) == (Action.REPLACE_FAR_TRANSCEIVER, "escalation.replace_transceiver")
        everything = [failed(action, 10 * i) for i, action in enumerate(Action, start=1)]
        assert recommend(uplink, "a_to_z", history=everything).rule == "escalation.exhausted"


class TestNoOpticalData:
    def test_the_generic_sequence_follows_the_history(self, demo):
        def counters_only(sample):
            for key in OPTICAL_KEYS:
                sample.pop(key, None)
            return sample if "in_pkts" in sample else None  # an optics-only poll has nothing left

        run(demo, [fault("loose_transceiver")], edit=counters_only)
        uplink = link_at(demo, "p0-tor0:eth2/1")
        assert not EndState.objects.filter(link=uplink, optical_time__isnull=False).exists()
        steps = []
        for expected in (Action.CLEAN_FIBER, Action.RESEAT_TRANSCEIVER, Action.REPLACE_TRANSCEIVER):
            rec = recommend(uplink, "a_to_z", history=steps)
            assert (rec.action, rec.rule) == (expected, "no_optical_data")
            assert rec.evidence["has_optical_data"] is False
            steps.append(failed(expected, 100 - len(steps)))


class TestEvidence:
    def test_evidence_carries_values_thresholds_rates_and_history(self, demo):
        run(demo, [fault("dirty_connector", loss_rate=3e-5)])
        uplink = link_at(demo, "p0-tor0:eth2/1")
        history = [failed(Action.RESEAT_TRANSCEIVER)]
        rec = recommend(uplink, "a_to_z", history=history)
        data = json.loads(json.dumps(rec.as_dict()))
        assert data["action"] == "clean_fiber" and data["rule"] == "local_rx_low"
        evidence = data["evidence"]
        z = EndState.objects.get(link=uplink, side="z")
        local = evidence["optics"]["local"]
        assert local["end"] == "p0-fab0:eth1/1" and local["transceiver_model"] == "100G-SR4"
        assert (local["rx_dbm"], local["rx_min_lane_dbm"], local["rx_class"]) == (
            z.input_power_dbm,
            z.input_power_min_channel_dbm,
            "low",
        )
        assert local["thresholds"]["input_power_lower_dbm"] == {"value": -10.3, "provenance": "catalog"}
        assert evidence["optics"]["far"]["tx_low"] is False
        event = CorruptionEvent.objects.get(link=uplink, direction="a_to_z", ended_at__isnull=True)
        assert evidence["rates"]["this"] == event.last_rate
        assert evidence["rates"]["onset"] == event.first_seen.isoformat()
        assert evidence["rates"]["opposite_corrupting"] is False
        assert [n["switch"] for n in evidence["neighbours"]] == ["p0-fab0", "p0-tor0"]
        assert evidence["history"][0]["action_taken"] == "reseat_transceiver"
        assert evidence["failed_actions"] == ["reseat_transceiver"]
        assert evidence["settings"]["reseat_recent_days"] == 7

    def test_a_missing_limit_falls_back_to_the_global_rx_threshold(self, demo):
        run(demo, [fault("dirty_connector")])
        uplink = link_at(demo, "p0-tor0:eth2/1")
        Transceiver.objects.filter(link=uplink).delete()
        rec = recommend(uplink, "a_to_z", settings={"global_rx_threshold_dbm": -30.0})
        limit = rec.evidence["optics"]["local"]["thresholds"]["input_power_lower_dbm"]
        assert limit == {"value": -30.0, "provenance": "global"}


def test_breakout_groups_and_line_cards_follow_the_port_number():
    assert breakout_group("eth1/1", 4) == breakout_group("eth1/4", 4) == ("eth1/", 0)
    assert breakout_group("eth1/5", 4) == ("eth1/", 1) != breakout_group("eth2/5", 4)
    assert breakout_group("mgmt", 4) is None
    assert line_card("eth1/7") == "eth1" and line_card("up0") is None


def test_an_unknown_direction_is_refused(demo):
    with pytest.raises(ValueError, match="direction"):
        recommend(link_at(demo, "p0-tor0:eth2/1"), "up")
