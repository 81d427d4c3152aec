from django.db import migrations, models


class Migration(migrations.Migration):
    """A sample's oper-status (docs/telemetry.md), as IF-MIB's ifOperStatus number: derivation
    sets a link's operational state from it. A nullable column without a default: adding it to
    the partitioned sample table rewrites and scans nothing (ingest checks the values)."""

    dependencies = [("telemetry", "0008_derivation_checkpoint")]

    operations = [
        migrations.AddField(
            model_name="sample",
            name="oper_status",
            field=models.SmallIntegerField(null=True),
        ),
    ]
