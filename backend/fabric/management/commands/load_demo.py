import datetime as dt
import json

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
from telemetry.services import maintenance
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
        telemetry = generate_telemetry(
            document,
            start=end - dt.timedelta(hours=DEMO_TELEMETRY_HOURS),
            hours=DEMO_TELEMETRY_HOURS,
            seed=7,
            faults=down + DEMO_FAULTS,
        )
        batch: list[dict] = []
        total = 0
        # Time-ordered, so each batch advances the windows; derived as it is stored (the demo
        # worker may not run yet), so the demo opens with health, events, decisions and the down
        # links set down (every sample carries oper_status).
        for sample in telemetry:
            batch.append(sample)
            if len(batch) == BATCH:
                total += ingest(fabric, batch, derive=True).samples
                batch = []
        if batch:
            total += ingest(fabric, batch, derive=True).samples
        # The hourly aggregates too, so that ranges beyond the raw resolution have data at once.
        maintenance.rollup_hours(end - dt.timedelta(hours=DEMO_TELEMETRY_HOURS), end)
        return total
