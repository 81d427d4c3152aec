from django.db import migrations

# (table, column, referenced table, action): a link's tickets, their steps and comments go with
# the link in the database itself, as its decisions do (0002).
RULES = (
    ("corruption_ticket", "link_id", "fabric_link", "CASCADE"),
    ("corruption_ticket", "decision_id", "corruption_decision", "CASCADE"),
    ("corruption_ticketstep", "ticket_id", "corruption_ticket", "CASCADE"),
    ("corruption_ticketstep", "decision_id", "corruption_decision", "CASCADE"),
    ("corruption_ticketcomment", "ticket_id", "corruption_ticket", "CASCADE"),
)


def _sql(table: str, column: str, referenced: str, action: str) -> str:
    return f"""
    DO $$
    DECLARE r record;
    BEGIN
      FOR r IN
        SELECT con.conname
          FROM pg_constraint con
          JOIN pg_class rel ON rel.oid = con.conrelid
          JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = con.conkey[1]
         WHERE con.contype = 'f' AND rel.relname = '{table}' AND att.attname = '{column}'
      LOOP
        EXECUTE format('ALTER TABLE {table} DROP CONSTRAINT %I', r.conname);
        EXECUTE format(
          'ALTER TABLE {table} ADD CONSTRAINT %I FOREIGN KEY ({column}) REFERENCES {referenced} (id) '
          'ON DELETE {action} DEFERRABLE INITIALLY DEFERRED', r.conname);
      END LOOP;
    END $$;
    """  # noqa: S608 (table and column names are the constants above)


class Migration(migrations.Migration):
    """The fabric app deletes a whole fabric with set-based SQL that knows nothing of tickets."""

    dependencies = [("corruption", "0003_tickets")]

    operations = [migrations.RunSQL(sql=_sql(*rule), reverse_sql=migrations.RunSQL.noop) for rule in RULES]
