"""Succeeded jobs of kinds without a summary said "done", which told nothing the state does not:
their message is now left empty (jobs.services), and so is the old jobs'."""

from django.db import migrations


def blank_done(apps, schema_editor):
    apps.get_model("jobs", "Job").objects.filter(state="succeeded", message="done").update(message="")


class Migration(migrations.Migration):
    dependencies = [("jobs", "0003_log_entries")]

    operations = [migrations.RunPython(blank_done, migrations.RunPython.noop)]
