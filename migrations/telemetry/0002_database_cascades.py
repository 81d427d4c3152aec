from django.db import migrations

TABLES = ("telemetry_endstate", "telemetry_directionhealth", "telemetry_powerthreshold", "telemetry_corruptionevent")


class Migration(migrations.Migration):
    """Telemetry rows of a link go with it in the database itself, not only through the ORM:
    the fabric app deletes a whole fabric with set-based SQL that knows nothing of telemetry.
    Django names its foreign keys by hash, so they are found in the catalog."""

    dependencies = [("telemetry", "0001_initial")]

    operations = [
        migrations.RunSQL(
            sql=f"""
            DO $$
            DECLARE r record;
            BEGIN
              FOR r IN
                SELECT con.conname, rel.relname, att.attname
                  FROM pg_constraint con
                  JOIN pg_class rel ON rel.oid = con.conrelid
                  JOIN pg_class ref ON ref.oid = con.confrelid
                  JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = con.conkey[1]
                 WHERE con.contype = 'f' AND ref.relname = 'fabric_link'
                   AND rel.relname IN {TABLES!r}
              LOOP
                EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.relname, r.conname);
                EXECUTE format(
                  'ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES fabric_link (id) '
                  'ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED', r.relname, r.conname, r.attname);
              END LOOP;
            END $$;
            """,
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
