from django.db import migrations

# A forecast goes with its link and its fabric in the database itself: the fabric app deletes a
# fabric with set-based SQL, and the ORM's collector then need not read this table (the model says
# DO_NOTHING). Django names its foreign keys by hash, so they are found in the catalog.
DATABASE_CASCADES = """
DO $$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT con.conname, att.attname, ref.relname AS target
      FROM pg_constraint con
      JOIN pg_class rel ON rel.oid = con.conrelid
      JOIN pg_class ref ON ref.oid = con.confrelid
      JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = con.conkey[1]
     WHERE con.contype = 'f' AND rel.relname = 'telemetry_linkforecast'
  LOOP
    EXECUTE format('ALTER TABLE telemetry_linkforecast DROP CONSTRAINT %I', r.conname);
    EXECUTE format(
      'ALTER TABLE telemetry_linkforecast ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES %I (id) '
      'ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED', r.conname, r.attname, r.target);
  END LOOP;
END $$;
"""


class Migration(migrations.Migration):
    """A migration of its own: Django adds 0011's foreign keys at the end of that migration."""

    dependencies = [("telemetry", "0011_link_forecast")]

    operations = [migrations.RunSQL(sql=DATABASE_CASCADES, reverse_sql=migrations.RunSQL.noop)]
