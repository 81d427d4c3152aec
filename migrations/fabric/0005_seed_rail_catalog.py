"""Seed the catalog with the standard technologies of seed 000 (Table 4.2, Appendix D).

The values are those of `lightpath_engine.rail_standard_catalog()`, written out so that this
migration never changes (fabric/tests/test_catalog.py checks they still agree). Only the 10G prices
are in the seed; the others are illustrative demo values, labelled `demo`: 40G back-solved in the
digest from the seed's 72 % optics share and 44 % savings, 100G typical list prices. Power
thresholds (dBm) are the standards' per-lane average limits, as in lightpath_fixtures.catalog.

A row that already has the name keeps what it has: only its empty fields are filled.
"""

from decimal import Decimal

from django.db import migrations

STANDARD = [
    # name, speed, fiber, rated reach, price, price source, stretch, (rx min, rx max, tx min, tx max)
    ("10GBASE-SR", 10, "MMF", 300.0, "82.30", "seed", [(0.99, 480.0), (0.95, 580.0)], (-9.9, -1.0, -7.3, -1.0)),
    ("10GBASE-LR", 10, "SMF", 10000.0, "187.20", "seed", [], (-14.4, 0.5, -8.2, 0.5)),
    ("40GBASE-SR4", 40, "MMF", 100.0, "304.00", "demo", [(0.99, 280.0), (0.95, 400.0)], (-9.5, 2.4, -7.6, 2.4)),
    ("40GBASE-LR4", 40, "SMF", 10000.0, "1322.00", "demo", [], (-13.7, 2.3, -7.0, 2.3)),
    ("100G-SR4", 100, "MMF", 70.0, "99.00", "demo", [(0.99, 110.0), (0.95, 130.0)], (-10.3, 2.4, -8.4, 2.4)),
    ("100G-PSM4", 100, "SMF", 500.0, "250.00", "demo", [(0.95, 2000.0)], (-12.66, 2.0, -9.4, 2.0)),
    ("100G-LR4", 100, "SMF", 10000.0, "700.00", "demo", [], (-10.6, 4.5, -4.3, 4.5)),
]
THRESHOLDS = ("rx_power_min_dbm", "rx_power_max_dbm", "tx_power_min_dbm", "tx_power_max_dbm")


def seed(apps, schema_editor):
    TransceiverModel = apps.get_model("fabric", "TransceiverModel")
    for name, speed, fiber, reach, price, source, stretch, powers in STANDARD:
        entries = [{"nrb": nrb, "reach_m": reach_m} for nrb, reach_m in stretch]
        row = TransceiverModel.objects.filter(name=name).first()
        if row is None:
            TransceiverModel.objects.create(
                name=name,
                speed_gbps=speed,
                fiber=fiber,
                reach_m=reach,
                price_usd=Decimal(price),
                price_source=source,
                stretch=entries,
                **dict(zip(THRESHOLDS, powers, strict=True)),
            )
            continue
        changed = []
        if row.price_usd is None:
            row.price_usd, row.price_source = Decimal(price), source
            changed += ["price_usd", "price_source"]
        if not row.stretch and entries:
            row.stretch = entries
            changed.append("stretch")
        for field, value in zip(THRESHOLDS, powers, strict=True):
            if getattr(row, field) is None:
                setattr(row, field, value)
                changed.append(field)
        if changed:
            row.save(update_fields=changed)


class Migration(migrations.Migration):
    dependencies = [("fabric", "0004_transceiver_model_rail")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
