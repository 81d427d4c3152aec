from django.db import migrations

LIMITS = [
    ("input_power_lower_dbm", "rx_power_min_dbm"),
    ("input_power_upper_dbm", "rx_power_max_dbm"),
    ("output_power_lower_dbm", "tx_power_min_dbm"),
    ("output_power_upper_dbm", "tx_power_max_dbm"),
]
COLUMNS = ",\n".join(
    f"""coalesce(m.{name}, d.{name}, c.{catalog}) AS {name},
       CASE WHEN m.{name} IS NOT NULL THEN 'manual' WHEN d.{name} IS NOT NULL THEN 'device'
            WHEN c.{catalog} IS NOT NULL THEN 'catalog' END AS {name.removesuffix("_dbm")}_source"""
    for name, catalog in LIMITS
)


class Migration(migrations.Migration):
    """The effective limits start from every link end, not from a union of the sources: a
    filter on link_id then reaches an index scan of fabric_link instead of every optic."""

    dependencies = [("telemetry", "0003_counter_columns_and_sql_rules")]

    operations = [
        migrations.RunSQL(
            sql=f"""
            DROP VIEW telemetry_effective_limits;
            CREATE VIEW telemetry_effective_limits AS
            SELECT l.id AS link_id, s.side, {COLUMNS}
              FROM fabric_link l
             CROSS JOIN (VALUES ('a'), ('z')) AS s(side)
              LEFT JOIN telemetry_powerthreshold m ON m.link_id = l.id AND m.side = s.side AND m.source = 'manual'
              LEFT JOIN telemetry_powerthreshold d ON d.link_id = l.id AND d.side = s.side AND d.source = 'device'
              LEFT JOIN fabric_transceiver t ON t.link_id = l.id AND t.side = s.side
              LEFT JOIN fabric_transceivermodel c ON c.id = t.model_id;
            """,
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
