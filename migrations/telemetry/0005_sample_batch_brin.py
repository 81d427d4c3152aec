from django.db import migrations


class Migration(migrations.Migration):
    """Batch ids grow with the insertion order of the sample table, so a BRIN index (a few pages
    per partition, almost free to keep up) finds a batch's rows as well as the B-tree of 0004 did,
    which cost every ingested row an index insert. Rows not yet summarised are always read, so
    a fresh batch is never missed."""

    dependencies = [("telemetry", "0004_derivation_watermark")]

    operations = [
        migrations.RunSQL(
            sql="""
            DROP INDEX telemetry_sample_batch;
            CREATE INDEX telemetry_sample_batch ON telemetry_sample USING brin (batch_id) WITH (autosummarize = on);
            """,
            reverse_sql="""
            DROP INDEX telemetry_sample_batch;
            CREATE INDEX telemetry_sample_batch ON telemetry_sample (batch_id);
            """,
        ),
    ]
