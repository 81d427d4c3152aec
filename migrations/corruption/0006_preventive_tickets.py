import importlib

import django.db.models.deletion
from django.db import migrations, models

# Making the decision columns nullable makes Django drop and re-add their foreign keys, without
# the database's ON DELETE CASCADE that 0004 gave them (a fabric's set-based delete relies on it):
# 0004's rules for those two columns run again.
_cascades = importlib.import_module("migrations.corruption.0004_ticket_database_cascades")
DECISION_RULES = [rule for rule in _cascades.RULES if rule[1] == "decision_id"]


class Migration(migrations.Migration):
    """Preventive tickets (issue #19): a ticket's kind; a preventive ticket and its forecast's step
    have no CorrOpt decision, which repair tickets and their steps keep (check constraints)."""

    dependencies = [("corruption", "0005_optimizer_job")]

    operations = [
        migrations.AddField(
            model_name="ticket",
            name="kind",
            field=models.CharField(
                choices=[("repair", "Repair"), ("preventive", "Preventive")],
                db_default="repair",
                default="repair",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="ticket",
            name="decision",
            field=models.ForeignKey(
                blank=True,
                help_text="The decision that opened it; none for a preventive ticket.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="opened_tickets",
                to="corruption.decision",
            ),
        ),
        migrations.AlterField(
            model_name="ticket",
            name="direction",
            field=models.CharField(
                help_text="Direction of the corruption that opened the ticket; of a preventive ticket, the direction "
                "whose receiving end is the end to act on.",
                max_length=6,
            ),
        ),
        migrations.AlterField(
            model_name="ticketstep",
            name="decision",
            field=models.OneToOneField(
                blank=True,
                help_text="The decision that asked for it; none for a preventive step.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ticket_step",
                to="corruption.decision",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticket",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind", "preventive"), ("decision__isnull", False), _connector="OR"),
                name="repair_ticket_has_decision",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketstep",
            constraint=models.CheckConstraint(
                condition=models.Q(("decision__isnull", False), ("rule__startswith", "preventive."), _connector="OR"),
                name="step_has_decision_unless_preventive",
            ),
        ),
        *(migrations.RunSQL(sql=_cascades._sql(*rule), reverse_sql=migrations.RunSQL.noop) for rule in DECISION_RULES),
    ]
