"""CorrOpt decisions on live fabrics (issue #5, reference: shared/reference/corropt.md).

A Decision records what CorrOpt did about one corrupting link: disabled it, or kept it enabled
because some ToR below it would have fallen under its capacity constraint. The fast checker
decides once per CorruptionEvent (enforced by a unique constraint, so a re-delivered task or a
repeated event never decides twice); the optimizer (a later kind) may decide again on the same
event and link.
"""

from django.db import models

from fabric.models import Fabric, Link, Switch
from telemetry.models import CorruptionEvent


class Decision(models.Model):
    class Kind(models.TextChoices):
        FAST_CHECKER = "fast_checker"
        OPTIMIZER = "optimizer"

    class Action(models.TextChoices):
        DISABLED = "disabled"
        KEPT = "kept", "kept for capacity"

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="corruption_decisions")
    link = models.ForeignKey(Link, on_delete=models.CASCADE, related_name="corruption_decisions")
    event = models.ForeignKey(
        CorruptionEvent, null=True, blank=True, on_delete=models.SET_NULL, related_name="decisions"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    action = models.CharField(max_length=8, choices=Action.choices)
    # Corruption loss rates (fractions) per direction; side A is the lower tier, so a_to_z is
    # the engine's "up" direction. Penalty = I(a_to_z) + I(z_to_a) with I(f) = f.
    loss_rate_a_to_z = models.FloatField(default=0.0)
    loss_rate_z_to_a = models.FloatField(default=0.0)
    penalty = models.FloatField()
    affected = models.JSONField(
        default=list,
        help_text="ToRs below the link: switch, name, paths before/after, design and required paths, "
        "fraction_before, fraction_after, threshold.",
    )
    blocking_tor = models.ForeignKey(
        Switch, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="Set when kept."
    )
    blocking_tor_fraction = models.FloatField(
        null=True, blank=True, help_text="The blocking ToR's capacity fraction when the link was kept."
    )
    engine_ms = models.FloatField(help_text="Time the engine took (building the state and checking).")
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event"],
                condition=models.Q(kind="fast_checker"),
                name="one_fast_check_per_event",
            )
        ]
        indexes = [models.Index(fields=["fabric", "created"]), models.Index(fields=["link", "created"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.action} link {self.link_id}"
