"""The trends' closed buckets move out of the derivation checkpoint into segments (issue #19's
cost): a run rewrites only the segments where a bucket closed. Existing checkpoints (version 3,
trends inside) still restore; the next run writes every segment."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("telemetry", "0013_forecast_settings_used"),
    ]

    operations = [
        migrations.CreateModel(
            name="TrendSegment",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "fabric_id", "segment", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("segment", models.IntegerField()),
                ("watermark", models.BigIntegerField(help_text="Id of the last IngestBatch of the run that wrote it.")),
                ("data", models.BinaryField()),
                (
                    "fabric",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="fabric.fabric"
                    ),
                ),
            ],
        ),
        # The bytes are already compact; PostgreSQL's own compression would cost time for little.
        migrations.RunSQL(
            sql="ALTER TABLE telemetry_trendsegment ALTER COLUMN data SET STORAGE EXTERNAL;",
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
