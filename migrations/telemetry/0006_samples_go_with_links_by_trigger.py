from django.db import migrations


class Migration(migrations.Migration):
    """The sample table's foreign key to fabric_link cost more than half of each ingested row
    (0.55 of 0.95 server CPU seconds per 100,000 rows COPYed in, BENCHMARKS.md): PostgreSQL checks
    it row by row. It is replaced by a statement trigger on fabric_link that deletes the samples of
    the deleted links, whichever path deletes them (the fabric app's set-based SQL, the ORM).

    Ingest resolves link ends under the fabric's ingest advisory lock (namespace 0x7E1E = 32286,
    services/ingest.py); the trigger takes the same lock, so a deletion waits for an ingest that
    resolved the deleted links to commit and then deletes its samples too, and an ingest waiting
    on a deletion resolves ends only after it committed. No sample outlives its link."""

    dependencies = [("telemetry", "0005_sample_batch_brin")]

    operations = [
        migrations.RunSQL(
            sql="""
            ALTER TABLE telemetry_sample DROP CONSTRAINT telemetry_sample_link_id_fkey;

            CREATE FUNCTION telemetry_delete_samples_of_links() RETURNS trigger
                LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(32286, fabric_id::integer)
                   FROM (SELECT DISTINCT fabric_id FROM deleted_links ORDER BY fabric_id) AS fabrics;
                DELETE FROM telemetry_sample s USING deleted_links d WHERE s.link_id = d.id;
                RETURN NULL;
            END $$;

            CREATE TRIGGER telemetry_samples_go_with_links
                AFTER DELETE ON fabric_link REFERENCING OLD TABLE AS deleted_links
                FOR EACH STATEMENT EXECUTE FUNCTION telemetry_delete_samples_of_links();
            """,
            reverse_sql="""
            DROP TRIGGER telemetry_samples_go_with_links ON fabric_link;
            DROP FUNCTION telemetry_delete_samples_of_links();
            DELETE FROM telemetry_sample s WHERE NOT EXISTS (SELECT 1 FROM fabric_link l WHERE l.id = s.link_id);
            ALTER TABLE telemetry_sample ADD CONSTRAINT telemetry_sample_link_id_fkey
                FOREIGN KEY (link_id) REFERENCES fabric_link (id) ON DELETE CASCADE;
            """,
        ),
    ]
