"""Optical circuit switches attached to the ToRs of a fabric, and rack-to-rack demand (issue #7).

A CircuitSwitch is general on purpose (ShareBackup and Larry, issue #8, reuse it): a switch with
ports, a zone, a dark (reconfiguration) time and a per-circuit capacity, attached to ToRs.
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.validators import MinValueValidator
from django.db import models

from fabric.models import Fabric, Link, Switch


class CircuitSwitch(models.Model):
    """An optical circuit switch (OCS): circuits join pairs of its attached racks."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="circuit_switches")
    name = models.CharField(max_length=100)
    zone = models.CharField(
        max_length=100, blank=True, help_text="Circuits stay inside one switch; a zone groups switches."
    )
    port_count = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    dark_time_s = models.FloatField(
        default=0.01, validators=[MinValueValidator(0.0)], help_text="Reconfiguration time a changed circuit is dark."
    )
    capacity_gbps = models.FloatField(default=10.0, validators=[MinValueValidator(0.0)], help_text="Per circuit.")
    description = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["fabric", "name"]
        constraints = [models.UniqueConstraint(fields=["fabric", "name"], name="circuit_switch_unique_name")]
        verbose_name_plural = "circuit switches"

    def __str__(self) -> str:
        return self.name


class CircuitAttachment(models.Model):
    """A ToR's optical ports on a circuit switch. Each listed link carries one of the ports: the port
    is unavailable while that link is disabled, down or under a repair ticket not yet resolved."""

    circuit_switch = models.ForeignKey(CircuitSwitch, on_delete=models.CASCADE, related_name="attachments")
    tor = models.ForeignKey(Switch, on_delete=models.CASCADE, related_name="circuit_attachments")
    optical_ports = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    links = models.ManyToManyField(Link, blank=True, related_name="circuit_attachments")

    class Meta:
        ordering = ["circuit_switch", "tor__name"]
        constraints = [models.UniqueConstraint(fields=["circuit_switch", "tor"], name="circuit_attachment_unique_tor")]

    def __str__(self) -> str:
        return f"{self.tor} on {self.circuit_switch}"


class Demand(models.Model):
    """Directed rack-to-rack bytes per window, uploaded as CSV or JSON (summary; rows in DemandWindow)."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="demands")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    window_s = models.FloatField(help_text="Window length in seconds.")
    first_window_start = models.FloatField(help_text="Seconds (UNIX time when uploaded with ISO times).")
    window_count = models.PositiveIntegerField()
    row_count = models.PositiveIntegerField()
    rack_count = models.PositiveIntegerField()
    total_bytes = models.BigIntegerField()

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["fabric", "name"], name="demand_unique_name")]

    def __str__(self) -> str:
        return self.name


class DemandWindow(models.Model):
    """One non-empty window's rows as three parallel arrays (src ToR ids, dst ToR ids, bytes).

    Arrays, not a row per entry: a 4,000-rack sparse demand window of ~40K rows is one row of
    three arrays (about 1 MB), written in one INSERT and read back in one fetch for a plan or a heat
    map; a child row per entry would be 40K rows with their headers and index entries, for no query
    that needs one entry alone. The ids are not foreign keys: a plan maps them through the fabric's
    current ToRs and reports any that were deleted.
    """

    demand = models.ForeignKey(Demand, on_delete=models.CASCADE, related_name="windows")
    index = models.PositiveIntegerField()
    src = ArrayField(models.BigIntegerField())
    dst = ArrayField(models.BigIntegerField())
    bytes = ArrayField(models.BigIntegerField())
    total_bytes = models.BigIntegerField()

    class Meta:
        ordering = ["demand", "index"]
        constraints = [models.UniqueConstraint(fields=["demand", "index"], name="demand_window_unique_index")]

    def __str__(self) -> str:
        return f"{self.demand} window {self.index}"
