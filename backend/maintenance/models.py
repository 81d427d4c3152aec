"""Work orders (issue #18): one visit that repairs one or more tickets whose repairs share a
component, with the links the visit takes out of service (its footprint)."""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone

from corruption.models import Ticket
from fabric.models import Fabric, Link


class WorkOrder(models.Model):
    """open -> in_progress -> done, or cancelled (its tickets regrouped elsewhere, or repaired)."""

    class State(models.TextChoices):
        OPEN = "open"
        IN_PROGRESS = "in_progress", "in progress"
        DONE = "done"
        CANCELLED = "cancelled"

    class Outcome(models.TextChoices):
        REPAIRED = "repaired"
        NOT_REPAIRED = "not_repaired", "not repaired"

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="work_orders")
    state = models.CharField(max_length=11, choices=State.choices, default=State.OPEN)
    action = models.CharField(max_length=32, help_text="The repair done on the visit (corruption.recommend.Action).")
    component = models.CharField(
        max_length=200, help_text="Key of the component repaired (fabric.services.components), unique in the fabric."
    )
    component_name = models.CharField(max_length=200, help_text="The component as a technician reads it.")
    footprint = ArrayField(
        models.BigIntegerField(), default=list, help_text="Ids of the links out of service while it is done."
    )
    # Where the work is (maintenance.services.footprints, Repair.side): an end of its lead repair's
    # link; the API answers that end's switch, rack and port (and the other end's for a cable).
    location_link = models.ForeignKey(Link, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    location_side = models.CharField(
        max_length=1, choices=[("a", "a"), ("z", "z")], blank=True, help_text="The end of location_link worked at."
    )
    location_both_ends = models.BooleanField(
        default=False, help_text="A cable or fiber: its other end is worked on too."
    )
    duration_s = models.PositiveIntegerField(help_text="How long the footprint stays out of service.")
    success_chance = models.FloatField(help_text="Chance the repair fixes its tickets (settings MAINTENANCE).")
    tickets = models.ManyToManyField(Ticket, through="WorkOrderTicket", related_name="work_orders")
    created = models.DateTimeField(default=timezone.now, db_index=True)
    updated = models.DateTimeField(auto_now=True)
    # The visit (maintenance.services.visits): who started it, what the start changed, so that
    # finishing it puts exactly that back.
    started_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(
        max_length=12, choices=Outcome.choices, blank=True, help_text="How its last visit ended."
    )
    taken_down = ArrayField(
        models.BigIntegerField(), default=list, help_text="Footprint links the start disabled (they were enabled)."
    )
    restored_links = ArrayField(
        models.BigIntegerField(),
        default=list,
        help_text="Links disabled for corruption the start enabled for the repair's duration (the restoration).",
    )

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["fabric", "state"])]

    def __str__(self) -> str:
        return f"work order {self.pk}: {self.action} {self.component_name}"


class WorkOrderTicket(models.Model):
    """A ticket in a work order; `current` while the order is open or in progress, so that a
    ticket belongs to at most one of those (the constraint) and keeps its history."""

    work_order = models.ForeignKey(WorkOrder, on_delete=models.CASCADE, related_name="entries")
    ticket = models.ForeignKey(Ticket, on_delete=models.CASCADE, related_name="work_order_entries")
    current = models.BooleanField(default=True)

    class Meta:
        ordering = ["work_order", "ticket"]
        constraints = [
            models.UniqueConstraint(fields=["work_order", "ticket"], name="work_order_ticket_once"),
            models.UniqueConstraint(
                fields=["ticket"], condition=models.Q(current=True), name="ticket_in_one_current_work_order"
            ),
        ]

    def __str__(self) -> str:
        return f"ticket {self.ticket_id} in work order {self.work_order_id}"
