from django.db import migrations


def create_collector_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name="collector")


class Migration(migrations.Migration):
    """The collector role: an account that may push telemetry and nothing else."""

    dependencies = [("accounts", "0001_roles")]
    operations = [migrations.RunPython(create_collector_group, migrations.RunPython.noop)]
