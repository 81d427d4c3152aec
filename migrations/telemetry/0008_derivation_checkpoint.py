"""The derivation engine's state moves to one Checkpoint row per fabric; EndState keeps only
what readers see (newest readings, classes, counter time), so its counter window columns go.

Fabrics derived before this migration get their checkpoint built from the rows being dropped
(windows, readings, direction health, open events), so no window is lost across the upgrade."""

import django.db.models.deletion
from django.db import migrations, models

COUNTERS = ("in_pkts", "in_fcs_errors", "in_discards", "out_pkts", "out_discards")
READINGS = (
    "input_power_dbm", "input_power_min_channel_dbm", "output_power_dbm", "output_power_min_channel_dbm",
    "laser_bias_current_ma", "temperature_c", "supply_voltage_v",
)  # fmt: skip
US = "(extract(epoch FROM {0}) * 1000000)::int8"


def columns(rows, width):
    return list(zip(*rows, strict=True)) if rows else [()] * width


def checkpoints_from_rows(apps, schema_editor):
    from lightpath_engine import TelemetryState  # the engine as of this migration's time

    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT l.fabric_id, coalesce(d.watermark, 0) FROM telemetry_endstate e "
            "JOIN fabric_link l ON l.id = e.link_id LEFT JOIN telemetry_derivation d ON d.fabric_id = l.fabric_id"
        )
        for fabric_id, watermark in cursor.fetchall():
            # The settings are not part of a checkpoint: a restored state takes the fabric's.
            state = TelemetryState(900.0, 2700.0, 1, 1e-6, 1e-8)
            cursor.execute(
                f"""
                SELECT e.link_id, e.side = 'z', {US.format("e.counter_time")},
                       {", ".join(f"e.last_{c}::text" for c in COUNTERS)}, {US.format("e.window_time")},
                       {", ".join(f"e.window_{c}::text" for c in COUNTERS)}, {US.format("e.optical_time")},
                       {", ".join(f"e.{r}" for r in READINGS)}, e.rx_no_light, e.tx_no_light
                  FROM telemetry_endstate e JOIN fabric_link l ON l.id = e.link_id WHERE l.fabric_id = %s
                """,
                [fabric_id],
            )
            rows = [
                tuple(int(v) if v is not None and (3 <= i < 8 or 9 <= i < 14) else v for i, v in enumerate(row))
                for row in cursor.fetchall()
            ]
            c = columns(rows, 24)
            state.load_ends(
                c[0], c[1], c[2], tuple(c[3:8]), c[8], tuple(c[9:14]), c[14], tuple(c[15:22]), (c[22], c[23])
            )
            cursor.execute(
                f"""
                SELECT h.link_id, h.direction = 'z_to_a', h.health, {US.format("h.health_since")},
                       h.corruption_rate, {US.format("h.corruption_time")}, h.congestion_rate,
                       {US.format("h.congestion_time")}, o.rate, {US.format("o.first_seen")}, o.last_rate,
                       o.peak_rate, {US.format("o.last_seen")}
                  FROM telemetry_directionhealth h JOIN fabric_link l ON l.id = h.link_id
                  LEFT JOIN telemetry_corruptionevent o
                         ON o.link_id = h.link_id AND o.direction = h.direction AND o.ended_at IS NULL
                 WHERE l.fabric_id = %s
                """,
                [fabric_id],
            )
            d = cursor.fetchall()
            state.load_directions(
                [r[0] for r in d],
                [r[1] for r in d],
                [r[2] for r in d],
                [r[3] for r in d],
                [None if r[4] is None or r[5] is None else (r[4], r[5]) for r in d],
                [None if r[6] is None or r[7] is None else (r[6], r[7]) for r in d],
                [None if r[8] is None else (r[8], r[9], r[10], r[11], r[12]) for r in d],
            )
            cursor.execute(
                "INSERT INTO telemetry_checkpoint (fabric_id, watermark, data) VALUES (%s, %s, %s)",
                [fabric_id, watermark, state.checkpoint()],
            )


class Migration(migrations.Migration):
    dependencies = [("telemetry", "0007_fabric_ends_version")]

    operations = [
        migrations.CreateModel(
            name="Checkpoint",
            fields=[
                (
                    "fabric",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="fabric.fabric",
                    ),
                ),
                ("watermark", models.BigIntegerField(help_text="Id of the last IngestBatch the state includes.")),
                ("data", models.BinaryField()),
            ],
        ),
        # The bytes are already compact; PostgreSQL's own compression would cost time for little.
        migrations.RunSQL(
            sql="ALTER TABLE telemetry_checkpoint ALTER COLUMN data SET STORAGE EXTERNAL;",
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.RunPython(checkpoints_from_rows, migrations.RunPython.noop),
        *(
            migrations.RemoveField(model_name="endstate", name=name)
            for name in (
                *(f"last_{c}" for c in COUNTERS),
                "window_time",
                *(f"window_{c}" for c in COUNTERS),
            )
        ),
    ]
