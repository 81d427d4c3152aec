from django.db import migrations

# (column, referenced table, action) of the decision table's foreign keys.
RULES = (
    ("link_id", "fabric_link", "CASCADE"),
    ("event_id", "telemetry_corruptionevent", "SET NULL"),
    ("blocking_tor_id", "fabric_switch", "SET NULL"),
)


def _sql(column: str, table: str, action: str) -> str:
    return f"""
    DO $$
    DECLARE r record;
    BEGIN
      FOR r IN
        SELECT con.conname
          FROM pg_constraint con
          JOIN pg_class rel ON rel.oid = con.conrelid
          JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = con.conkey[1]
         WHERE con.contype = 'f' AND rel.relname = 'corruption_decision' AND att.attname = '{column}'
      LOOP
        EXECUTE format('ALTER TABLE corruption_decision DROP CONSTRAINT %I', r.conname);
        EXECUTE format(
          'ALTER TABLE corruption_decision ADD CONSTRAINT %I FOREIGN KEY ({column}) REFERENCES {table} (id) '
          'ON DELETE {action} DEFERRABLE INITIALLY DEFERRED', r.conname);
      END LOOP;
    END $$;
    """  # noqa: S608 (column and table names are the constants above)


class Migration(migrations.Migration):
    """A link's decisions go with it in the database itself, as its telemetry does (telemetry
    0002): the fabric app deletes a whole fabric with set-based SQL that knows nothing of them."""

    dependencies = [("corruption", "0001_initial")]

    operations = [migrations.RunSQL(sql=_sql(*rule), reverse_sql=migrations.RunSQL.noop) for rule in RULES]
