import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.services import DEMO_PASSWORD, create_demo_users
from fabric import services
from fabric.models import Fabric
from jobs import services as jobs

DEMO_DOCUMENT = settings.REPO_ROOT / "fixtures" / "data" / "demo-fb.json"


class Command(BaseCommand):
    help = "Demo mode only: create one user per role and load the demo fabric (safe to run twice)."

    def handle(self, *args, **options):
        if not settings.LIGHTPATH_DEMO:
            raise CommandError("load_demo runs only in demo mode (LIGHTPATH_DEMO=1)")
        users = create_demo_users()
        document = json.loads(DEMO_DOCUMENT.read_text())
        fabric = Fabric.objects.filter(name=document["name"]).first()
        if fabric is None:
            try:
                fabric = services.import_document(document)
            except services.InterchangeError as exc:
                raise CommandError(f"demo fabric is invalid: {exc.errors}") from exc
            jobs.submit("fabric.capacity_report", fabric=fabric)
            if options["verbosity"] >= 1:
                self.stdout.write(f"loaded fabric '{fabric.name}'")
        if options["verbosity"] >= 1:
            self.stdout.write(f"demo users (password '{DEMO_PASSWORD}'): {', '.join(users)}")
