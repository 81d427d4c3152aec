"""CorrOpt decisions on live fabrics (issue #5, reference: shared/reference/corropt.md).

A Decision records what CorrOpt did about one corrupting link: disabled it, or kept it enabled
because some ToR below it would have fallen under its capacity constraint. The fast checker
decides once per CorruptionEvent (enforced by a unique constraint, so a re-delivered task or a
repeated event never decides twice); the optimizer (corruption.optimizer) may decide again on the
same event and link, once per job and link.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone

from fabric.models import Fabric, Link, Switch
from telemetry.models import CorruptionEvent


class RepairAction(models.TextChoices):
    """What a ticket step recommends and what the technician records (corruption.recommend's
    actions), labelled with what to do; REPAIR_ACTION_DONE says it as done. The one table of their words: the
    CSV reads it (the UI keeps its own copy in repairActions.ts)."""

    REPLACE_SHARED_COMPONENT = (
        "replace_shared_component",
        "Replace the shared component (breakout cable, line card or switch)",
    )
    REPLACE_CABLE = "replace_cable", "Replace the cable"
    REPLACE_FAR_TRANSCEIVER = "replace_far_transceiver", "Replace the far-end transceiver"
    CLEAN_FIBER = "clean_fiber", "Clean the connectors (both ends)"
    RESEAT_TRANSCEIVER = "reseat_transceiver", "Reseat the transceiver"
    REPLACE_TRANSCEIVER = "replace_transceiver", "Replace the transceiver"


# The step history's and the act form's words: what was done.
REPAIR_ACTION_DONE = {
    "replace_shared_component": "Replaced shared component",
    "replace_cable": "Replaced cable",
    "replace_far_transceiver": "Replaced far-end transceiver",
    "clean_fiber": "Cleaned fiber",
    "reseat_transceiver": "Reseated transceiver",
    "replace_transceiver": "Replaced transceiver",
}


class Decision(models.Model):
    class Kind(models.TextChoices):
        # The decision log's words, lower case as in "disabled by fast checker".
        FAST_CHECKER = "fast_checker", "fast checker"
        OPTIMIZER = "optimizer", "optimizer"

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
    job = models.ForeignKey(
        "jobs.Job",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="corruption_decisions",
        help_text="The optimizer job that made it (none for the fast checker).",
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event"],
                condition=models.Q(kind="fast_checker"),
                name="one_fast_check_per_event",
            ),
            models.UniqueConstraint(
                fields=["job", "link"], condition=models.Q(kind="optimizer"), name="one_optimizer_decision_per_job_link"
            ),
        ]
        indexes = [models.Index(fields=["fabric", "created"]), models.Index(fields=["link", "created"])]

    # In words: the audit log and the admin show it ("fast checker: disabled link #16").
    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.get_action_display()} link #{self.link_id}"


class Ticket(models.Model):
    """The repair of one link disabled for corruption (issue #5, "Tickets and the repair loop"),
    or a preventive one of a link whose optics are forecast to fail (issue #19, kind `preventive`:
    no CorrOpt decision, the link stays in service; corruption.preventive).

    open -> in_progress -> awaiting_validation -> resolved; corruption during validation sends
    it back to open with a new step, corruption within `reopen_days` of resolution to reopened.
    At most one ticket per link is not resolved."""

    class Kind(models.TextChoices):
        REPAIR = "repair"
        PREVENTIVE = "preventive"

    class State(models.TextChoices):
        # The queue's words, all lower case ("open", "in progress"), in the CSV and the audit log too.
        OPEN = "open", "open"
        IN_PROGRESS = "in_progress", "in progress"
        AWAITING_VALIDATION = "awaiting_validation", "awaiting validation"
        RESOLVED = "resolved", "resolved"
        REOPENED = "reopened", "reopened"

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="tickets")
    link = models.ForeignKey(Link, on_delete=models.CASCADE, related_name="tickets")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.REPAIR, db_default=Kind.REPAIR)
    direction = models.CharField(
        max_length=6,
        help_text="Direction of the corruption that opened the ticket; of a preventive ticket, the direction "
        "whose receiving end is the end to act on.",
    )
    state = models.CharField(max_length=19, choices=State.choices, default=State.OPEN)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="tickets"
    )
    decision = models.ForeignKey(
        Decision,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="opened_tickets",
        help_text="The decision that opened it; none for a preventive ticket.",
    )
    validation_started_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["link"], condition=~models.Q(state="resolved"), name="one_unresolved_ticket_per_link"
            ),
            models.CheckConstraint(
                condition=models.Q(kind="preventive") | models.Q(decision__isnull=False),
                name="repair_ticket_has_decision",
            ),
        ]
        indexes = [models.Index(fields=["fabric", "state"])]

    # In words: the audit log shows it ("Ticket #1 on link #16, awaiting validation").
    def __str__(self) -> str:
        return f"Ticket #{self.pk} on link #{self.link_id}, {self.get_state_display()}"


class TicketStep(models.Model):
    """One repair attempt: what recommend() said (with its evidence), what the technician did.
    A preventive ticket's first step has no decision: its advice comes from the link's forecast
    (rule `preventive.<cause>`, the forecast as evidence)."""

    class Outcome(models.TextChoices):
        PENDING = "pending"
        FIXED = "fixed"
        RECURRED = "recurred"

    ticket = models.ForeignKey(Ticket, on_delete=models.CASCADE, related_name="steps")
    number = models.PositiveIntegerField()
    decision = models.OneToOneField(
        Decision,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ticket_step",
        help_text="The decision that asked for it; none for a preventive step.",
    )
    direction = models.CharField(max_length=6)
    recommended_action = models.CharField(max_length=32)
    rule = models.CharField(max_length=64)
    explanation = models.TextField()
    evidence = models.JSONField(default=dict)
    action_taken = models.CharField(max_length=32, blank=True, help_text="Empty until the technician records it.")
    followed = models.BooleanField(null=True, blank=True, help_text="action_taken == recommended_action.")
    technician = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    notes = models.TextField(blank=True)
    created = models.DateTimeField(default=timezone.now)
    acted_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, default=Outcome.PENDING)

    class Meta:
        ordering = ["ticket", "number"]
        constraints = [
            models.UniqueConstraint(fields=["ticket", "number"], name="one_step_number_per_ticket"),
            # Only the forecast's advice (corruption.preventive) comes without a decision.
            models.CheckConstraint(
                condition=models.Q(decision__isnull=False) | models.Q(rule__startswith="preventive."),
                name="step_has_decision_unless_preventive",
            ),
        ]

    def __str__(self) -> str:
        return f"Ticket #{self.ticket_id}, step {self.number}"


class TicketComment(models.Model):
    ticket = models.ForeignKey(Ticket, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    text = models.TextField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["ticket", "created", "id"]

    def __str__(self) -> str:
        return f"Comment on ticket #{self.ticket_id}"
