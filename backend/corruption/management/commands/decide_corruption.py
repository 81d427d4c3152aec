"""Decide every undecided open corruption event, e.g. after the workers were down."""

from django.core.management.base import BaseCommand, CommandError

from corruption import services
from fabric.models import Fabric


class Command(BaseCommand):
    help = "Run the CorrOpt fast checker on every undecided open corruption event of a fabric (or all)."

    def add_arguments(self, parser):
        parser.add_argument("--fabric", help="fabric name (default: every fabric)")

    def handle(self, *args, fabric=None, **options):
        fabrics = Fabric.objects.all()
        if fabric:
            fabrics = fabrics.filter(name=fabric)
            if not fabrics.exists():
                raise CommandError(f"no fabric named {fabric!r}")
        for each in fabrics:
            outcomes = services.decide_open_events(each)
            decided = [o for o in outcomes if o.decision is not None]
            disabled = sum(o.decision.action == "disabled" for o in decided if o.decision)
            self.stdout.write(
                f"{each.name}: {len(decided)} decided ({disabled} disabled, {len(decided) - disabled} kept), "
                f"{len(outcomes) - len(decided)} skipped"
            )
