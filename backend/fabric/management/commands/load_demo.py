import datetime as dt
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from accounts.services import DEMO_PASSWORD, create_demo_users
from circuits import demo as circuits_demo
from fabric import services
from fabric.models import Fabric
from jobs import services as jobs
from lightpath_fixtures.canned import demo_down_link_indices, demo_fb_before_telemetry
from lightpath_fixtures.telemetry import LINK_DOWN, FaultSpec, generate_telemetry
from telemetry.models import EndState
from telemetry.services import forecasts, maintenance
from telemetry.services.ingest import ingest

# Two corrupting spine uplinks of pod 1 (which p1-tor3 no longer uses: its p1-fab0 link is
# disabled, its p1-fab2 link down), so that one work order needs a capacity restoration. CorrOpt
# disables both (every other pod-1 ToR keeps 14 of 16 paths). Reseating p1-fab2's breakout
# transceiver takes its three other spine uplinks down too: those ToRs would fall to 11 of the 12
# paths their constraint requires, and re-enabling the lossy p1-fab0 uplink for the visit brings
# them back to 12. The dirty connector on that uplink is a one-link cleaning, safe on its own.
DEMO_RESTORATION_FAULTS = (
    FaultSpec("dirty_connector", link="p1-fab0:eth2/2", direction="a_to_z", loss_rate=5e-5),
    # z_to_a: the fab's receiver corrupts, so the transceiver to reseat is the fab's breakout one.
    FaultSpec("loose_transceiver", link="p1-fab2:eth2/3", direction="z_to_a", loss_rate=2e-4),
)
# A day of synthetic telemetry with one fault of each root cause of the seed's Table 3.2, at
# rates an operator acts on (Table 3.1's upper buckets), so the demo shows corrupting links.
DEMO_TELEMETRY_HOURS = 24
DEMO_FAULTS = (
    FaultSpec("dirty_connector", loss_rate=3e-5),
    FaultSpec("bent_fiber", loss_rate=2e-4),
    FaultSpec("decaying_transmitter", loss_rate=8e-6),
    FaultSpec("loose_transceiver", loss_rate=5e-4),
    FaultSpec("shared_component", loss_rate=4e-5, component="breakout"),
    *DEMO_RESTORATION_FAULTS,
)
BATCH = 50_000
# The demo's down links (fixtures canned.DEMO_DOWN_LINKS) go down this long before the telemetry
# ends: their ends report oper_status down and go dark, and derivation sets them down.
DEMO_DOWN_BEFORE_END = dt.timedelta(hours=6)

DEMO_DOCUMENT = settings.REPO_ROOT / "fixtures" / "data" / "demo-fb.json"

# Predictive optics (issue #19): two links whose optics have been failing for DEMO_DECAY_DAYS, so
# that the demo opens with links at risk (docs/telemetry.md, "Forecasts: optics at risk"). The
# generator's day covers every link; these four ends also get the days before it (optical polls
# only, every DEMO_HISTORY_POLL), and their optical readings in the day follow the same model.
DEMO_DECAY_DAYS = 4
DEMO_HISTORY_POLL = dt.timedelta(minutes=15)
LANES = 4


@dataclass(frozen=True)
class DecayingOptics:
    """One link's optics over time: levels at the decay's onset, and how fast each moves per day.

    `rx_a`, `rx_z`: the Rx power at ends A and Z; `tx_a`, `tx_z`: the Tx power; `bias_*`: the laser
    bias (mA). Each lane reads its level plus a fixed lane offset and a little poll noise; the
    module temperature swings over the day (which the trend must not take for a fault)."""

    cause: str
    rx_a: tuple[float, float]
    rx_z: tuple[float, float]
    tx_a: tuple[float, float]
    tx_z: tuple[float, float]
    bias_a: tuple[float, float] = (6.6, 0.0)
    bias_z: tuple[float, float] = (6.6, 0.0)

    def readings(self, side: str, days: float, hour: float, rng: np.random.Generator) -> dict:
        def level(pair: tuple[float, float]) -> float:
            return pair[0] + pair[1] * days

        rx, tx, bias = (level(getattr(self, f"{name}_{side}")) for name in ("rx", "tx", "bias"))
        offsets = np.array([0.0, -0.15, 0.1, -0.05])
        rx_lanes = [round(float(v), 2) for v in rx + offsets + rng.normal(0.0, 0.05, LANES)]
        tx_lanes = [round(float(v), 2) for v in tx + offsets / 2 + rng.normal(0.0, 0.04, LANES)]
        bias_lanes = [round(float(v), 2) for v in bias + offsets + rng.normal(0.0, 0.03, LANES)]
        return {
            "input_power_channels_dbm": rx_lanes,
            "input_power_dbm": _mean_dbm(rx_lanes),
            "output_power_channels_dbm": tx_lanes,
            "output_power_dbm": _mean_dbm(tx_lanes),
            "laser_bias_current_channels_ma": bias_lanes,
            "laser_bias_current_ma": round(sum(bias_lanes) / LANES, 2),
            "temperature_c": round(40.0 + 3.0 * math.sin(2 * math.pi * hour / 24) + float(rng.normal(0.0, 0.2)), 2),
        }


def _mean_dbm(lanes: list[float]) -> float:
    return round(10 * math.log10(sum(10 ** (v / 10) for v in lanes) / len(lanes)), 2)


# The catalog's 100G-SR4 (the demo's optic) has Rx low -10.3 dBm and Tx low -8.4 dBm.
DEMO_AT_RISK = (
    # A's receiver falls 1.2 dB/day from -3.0 dBm (dirt on its connector), Z's transmitter holds:
    # -7.8 dBm after 4 days, about 2 days from the Rx limit. Clean the connectors at A.
    DecayingOptics("contamination", rx_a=(-3.0, -1.2), rx_z=(-2.6, 0.0), tx_a=(-1.8, 0.0), tx_z=(-1.5, 0.0)),
    # Z's laser ages: its Tx falls 0.9 dB/day with its bias rising, and A receives it falling alike:
    # Tx -4.6 dBm after 4 days, about 4 days from its limit. Replace the transceiver at Z.
    DecayingOptics(
        "decaying_transmitter",
        rx_a=(-2.4, -0.9),
        rx_z=(-2.2, 0.0),
        tx_a=(-1.6, 0.0),
        tx_z=(-1.0, -0.9),
        bias_z=(6.4, 0.6),
    ),
)


class Command(BaseCommand):
    help = "Demo mode only: create one user per role and load the demo fabric (safe to run twice)."

    def handle(self, *args, **options):
        if not settings.LIGHTPATH_DEMO:
            raise CommandError("load_demo runs only in demo mode (LIGHTPATH_DEMO=1)")
        users = create_demo_users()
        # Imported with every link operationally up: the down ones are reported down by telemetry.
        document = demo_fb_before_telemetry(json.loads(DEMO_DOCUMENT.read_text()))
        fabric = Fabric.objects.filter(name=document["name"]).first()
        if fabric is None:
            try:
                fabric = services.import_document(document)
            except services.InterchangeError as exc:
                raise CommandError(f"demo fabric is invalid: {exc.errors}") from exc
            jobs.submit("fabric.capacity_report", fabric=fabric)
            if options["verbosity"] >= 1:
                self.stdout.write(f"loaded fabric '{fabric.name}'")
        circuits_demo.load(fabric)
        if not EndState.objects.filter(link__fabric=fabric).exists():
            samples = self._telemetry(fabric, document)
            if options["verbosity"] >= 1:
                self.stdout.write(f"loaded {samples:,} telemetry samples for '{fabric.name}'")
        if options["verbosity"] >= 1:
            self.stdout.write(f"demo users (password '{DEMO_PASSWORD}'): {', '.join(users)}")

    def _telemetry(self, fabric: Fabric, document: dict) -> int:
        end = timezone.now().replace(second=0, microsecond=0)
        # The link_down faults first: they name their links, the other faults draw theirs among the rest.
        down = tuple(
            FaultSpec(LINK_DOWN, link=index, onset=end - DEMO_DOWN_BEFORE_END)
            for index in demo_down_link_indices(document)
        )
        start = end - dt.timedelta(hours=DEMO_TELEMETRY_HOURS)
        telemetry = generate_telemetry(
            document, start=start, hours=DEMO_TELEMETRY_HOURS, seed=7, faults=down + DEMO_FAULTS
        )
        at_risk = _at_risk_ends(document, telemetry.truth)
        decay_start = end - dt.timedelta(days=DEMO_DECAY_DAYS)
        rng = np.random.default_rng(19)
        # The days before the generator's: the at-risk ends' optical polls only (a few thousand samples).
        total = ingest(fabric, list(_history(at_risk, decay_start, start, rng)), derive=True).samples
        batch: list[dict] = []
        # Time-ordered, so each batch advances the windows; derived as it is stored (the demo
        # worker may not run yet), so the demo opens with health, events, decisions and the down
        # links set down (every sample carries oper_status).
        for sample in telemetry:
            optics = at_risk.get((sample["switch"], sample["port"]))
            if optics is not None and "input_power_dbm" in sample:
                sample.update(_readings_at(optics, decay_start, sample["time"], rng))
            batch.append(sample)
            if len(batch) == BATCH:
                total += ingest(fabric, batch, derive=True).samples
                batch = []
        if batch:
            total += ingest(fabric, batch, derive=True).samples
        # The hourly aggregates too, so that ranges beyond the raw resolution have data at once.
        maintenance.rollup_hours(decay_start, end)
        # Derivation forecasts a link when its 6-hour trend bucket closes (staggered per link), so
        # the run left forecasts up to 6 hours older than the telemetry: every link's anew as of
        # its newest sample, so a forecast's age on the demo is the demo's (trial 29 item 3).
        forecasts.refresh(fabric, end)
        return total


def _at_risk_ends(document: dict, truth: dict) -> dict[tuple[str, str], tuple[DecayingOptics, str]]:
    """The ends of DEMO_AT_RISK's links, by (switch, port), with their model and side: the first
    enabled ToR uplinks of pod 0 (in document order) on which the generator placed no fault."""
    taken = {link["index"] for fault in truth["faults"] for link in fault["links"]}
    free = [
        link
        for index, link in enumerate(document["links"])
        if index not in taken and link["admin_state"] == "enabled" and link["a"].startswith("p0-tor")
    ]
    ends: dict[tuple[str, str], tuple[DecayingOptics, str]] = {}
    for optics, link in zip(DEMO_AT_RISK, free, strict=False):
        ends[(link["a"], link["a_port"])] = (optics, "a")
        ends[(link["b"], link["b_port"])] = (optics, "z")
    return ends


def _readings_at(end: tuple[DecayingOptics, str], decay_start: dt.datetime, time: dt.datetime, rng) -> dict:
    optics, side = end
    days = (time - decay_start).total_seconds() / 86_400
    return optics.readings(side, days, time.hour + time.minute / 60, rng)


def _history(
    ends: dict[tuple[str, str], tuple[DecayingOptics, str]], start: dt.datetime, end: dt.datetime, rng
) -> Iterator[dict]:
    time = start
    while time < end:
        for (switch, port), model in ends.items():
            yield {"time": time, "switch": switch, "port": port, **_readings_at(model, start, time, rng)}
        time += DEMO_HISTORY_POLL
