from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("telemetry", "0012_link_forecast_cascades"),
    ]

    operations = [
        migrations.AddField(
            model_name="derivation",
            name="forecast_horizon_days",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="derivation",
            name="forecast_min_confidence",
            field=models.FloatField(blank=True, null=True),
        ),
    ]
