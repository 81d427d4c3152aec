"""Optical telemetry: raw samples, the derivation state of every link end, health, events.

See docs/telemetry.md for what each field means and how rates and health are derived.
"""

from django.contrib.postgres.fields import ArrayField
from django.db import models

from fabric.models import Link

# Counters are SNMP Counter64: unsigned, beyond bigint's range.
COUNTER_DIGITS = 20


class Side(models.TextChoices):
    A = "a"
    Z = "z"


class Direction(models.TextChoices):
    """Side A is the lower tier, so a_to_z is the upward direction."""

    A_TO_Z = "a_to_z"
    Z_TO_A = "z_to_a"


class PowerClass(models.TextChoices):
    OK = "ok"
    LOW = "low"
    HIGH = "high"
    UNKNOWN = "unknown"


def _counter():
    return models.DecimalField(max_digits=COUNTER_DIGITS, decimal_places=0, null=True)


def _lanes():
    return ArrayField(models.FloatField(null=True), null=True)


class Sample(models.Model):
    """One poll of one link end. The table is partitioned by day, created by SQL in the
    migration (Django cannot declare partitions), and written by the ingest service with COPY.
    The database's foreign key deletes a link's samples with the link."""

    pk = models.CompositePrimaryKey("link_id", "side", "time")
    time = models.DateTimeField()
    link = models.ForeignKey(Link, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+")
    side = models.CharField(max_length=1, choices=Side.choices)
    input_power_dbm = models.FloatField(null=True)
    output_power_dbm = models.FloatField(null=True)
    input_power_channels_dbm = _lanes()
    output_power_channels_dbm = _lanes()
    laser_bias_current_ma = models.FloatField(null=True)
    laser_bias_current_channels_ma = _lanes()
    temperature_c = models.FloatField(null=True)
    supply_voltage_v = models.FloatField(null=True)
    rx_no_light = models.BooleanField(default=False)
    tx_no_light = models.BooleanField(default=False)
    in_pkts = _counter()
    in_fcs_errors = _counter()
    in_discards = _counter()
    out_pkts = _counter()
    out_discards = _counter()
    # OpenConfig oper-status as IF-MIB's ifOperStatus number (1 up, 2 down, 3 testing, 4 unknown,
    # 5 dormant, 6 not_present, 7 lower_layer_down; telemetry.formats.OPER_STATUSES).
    oper_status = models.SmallIntegerField(null=True)
    # The ingest batch that last wrote the row: derivation reads the batches after its watermark.
    batch_id = models.BigIntegerField(null=True)

    class Meta:
        db_table = "telemetry_sample"

    def __str__(self) -> str:
        return f"link {self.link_id} side {self.side} at {self.time:%Y-%m-%d %H:%M:%S}"


class IngestBatch(models.Model):
    """One committed ingest batch of a fabric. Ids grow in commit order per fabric (a batch
    takes its id under the fabric's ingest lock), so they are derivation's watermark: sample
    times cannot be one, as samples arrive late and out of order."""

    id = models.BigAutoField(primary_key=True)
    fabric = models.ForeignKey("fabric.Fabric", on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    samples = models.IntegerField()
    first_time = models.DateTimeField(help_text="Oldest sample time, to prune partitions when reading.")
    last_time = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["fabric", "id"])]

    def __str__(self) -> str:
        return f"batch {self.id} of fabric {self.fabric_id} ({self.samples} samples)"


class Derivation(models.Model):
    """Derivation progress of one fabric: the last derived batch (its watermark; the derived
    state itself is the Checkpoint, and what readers see of it EndState, DirectionHealth and the
    CorruptionEvents) and whether a run is queued, so that batches arriving meanwhile queue one
    run, not one each."""

    fabric = models.OneToOneField("fabric.Fabric", on_delete=models.CASCADE, primary_key=True, related_name="+")
    watermark = models.BigIntegerField(default=0, help_text="Id of the last derived IngestBatch.")
    queued_at = models.DateTimeField(null=True, blank=True)
    derived_at = models.DateTimeField(null=True, blank=True)
    # The fabric's forecast settings the stored forecasts were judged by: a run that finds them
    # changed forecasts every link of the fabric anew, not only those whose trend moved.
    forecast_horizon_days = models.PositiveSmallIntegerField(null=True, blank=True)
    forecast_min_confidence = models.FloatField(null=True, blank=True)

    def __str__(self) -> str:
        return f"derivation of fabric {self.fabric_id} up to batch {self.watermark}"


class Checkpoint(models.Model):
    """The derivation engine's whole state of one fabric (counter windows, newest readings,
    direction health, open episodes) as the engine's compact bytes, written by every run in the
    transaction that moves the watermark. A process without the state in memory restores it
    from here (TelemetryState.restore) instead of from a row per link end."""

    fabric = models.OneToOneField("fabric.Fabric", on_delete=models.CASCADE, primary_key=True, related_name="+")
    watermark = models.BigIntegerField(help_text="Id of the last IngestBatch the state includes.")
    data = models.BinaryField()

    def __str__(self) -> str:
        return f"derivation checkpoint of fabric {self.fabric_id} at batch {self.watermark}"


class TrendSegment(models.Model):
    """One segment of the closed trend buckets of a fabric's checkpoint (the links of one
    bucket-phase class): a run rewrites only the segments where a bucket closed, in the
    transaction that writes the Checkpoint; the checkpoint lists the watermark each segment it
    needs was written at, so a restore refuses a segment of another run."""

    pk = models.CompositePrimaryKey("fabric_id", "segment")
    fabric = models.ForeignKey("fabric.Fabric", on_delete=models.CASCADE, related_name="+")
    segment = models.IntegerField()
    watermark = models.BigIntegerField(help_text="Id of the last IngestBatch of the run that wrote it.")
    data = models.BinaryField()

    def __str__(self) -> str:
        return f"trend segment {self.segment} of fabric {self.fabric_id} at batch {self.watermark}"


class HourlyAggregate(models.Model):
    """One hour of one link end, kept after the raw samples expire; partitioned by month.
    Counter columns are sums of valid poll-to-poll deltas (see services.maintenance)."""

    pk = models.CompositePrimaryKey("link_id", "side", "hour")
    hour = models.DateTimeField()
    link = models.ForeignKey(Link, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+")
    side = models.CharField(max_length=1, choices=Side.choices)
    optical_samples = models.IntegerField(default=0)
    input_power_dbm_avg = models.FloatField(null=True)
    input_power_dbm_min = models.FloatField(null=True)
    input_power_dbm_max = models.FloatField(null=True)
    output_power_dbm_avg = models.FloatField(null=True)
    output_power_dbm_min = models.FloatField(null=True)
    output_power_dbm_max = models.FloatField(null=True)
    rx_no_light_samples = models.IntegerField(default=0)
    in_pkts = _counter()
    in_fcs_errors = _counter()
    in_discards = _counter()
    out_pkts = _counter()
    out_discards = _counter()

    class Meta:
        db_table = "telemetry_hourly"

    def __str__(self) -> str:
        return f"link {self.link_id} side {self.side} hour {self.hour:%Y-%m-%d %H}:00"


class EndState(models.Model):
    """The latest of one link end: newest optical readings and their classes, and when its
    counters were last polled. Derivation writes a row only when these change."""

    link = models.ForeignKey(Link, on_delete=models.CASCADE, related_name="end_states")
    side = models.CharField(max_length=1, choices=Side.choices)
    optical_time = models.DateTimeField(null=True)
    input_power_dbm = models.FloatField(null=True)
    input_power_min_channel_dbm = models.FloatField(null=True, help_text="Lowest lane, what classes use.")
    output_power_dbm = models.FloatField(null=True)
    output_power_min_channel_dbm = models.FloatField(null=True)
    laser_bias_current_ma = models.FloatField(null=True)
    temperature_c = models.FloatField(null=True)
    supply_voltage_v = models.FloatField(null=True)
    rx_no_light = models.BooleanField(default=False)
    tx_no_light = models.BooleanField(default=False)
    rx_class = models.CharField(max_length=7, choices=PowerClass.choices, default=PowerClass.UNKNOWN)
    tx_class = models.CharField(max_length=7, choices=PowerClass.choices, default=PowerClass.UNKNOWN)
    # Time of the newest counter sample. The counter windows themselves are in the fabric's
    # Checkpoint, not here: they change every poll and no reader needs them per end.
    counter_time = models.DateTimeField(null=True)

    class Meta:
        ordering = ["link", "side"]
        constraints = [models.UniqueConstraint(fields=["link", "side"], name="end_state_one_per_link_end")]

    def __str__(self) -> str:
        return f"link {self.link_id} side {self.side}"


class DirectionHealth(models.Model):
    """Loss rates and health of one direction of a link, from its newest complete window."""

    link = models.ForeignKey(Link, on_delete=models.CASCADE, related_name="direction_health")
    direction = models.CharField(max_length=6, choices=Direction.choices)
    health = models.CharField(max_length=10, choices=Link.Health.choices, default=Link.Health.UNKNOWN)
    corruption_rate = models.FloatField(null=True)
    corruption_time = models.DateTimeField(null=True, help_text="End of the window the rate comes from.")
    congestion_rate = models.FloatField(null=True)
    congestion_time = models.DateTimeField(null=True)
    health_since = models.DateTimeField(null=True)

    class Meta:
        ordering = ["link", "direction"]
        constraints = [models.UniqueConstraint(fields=["link", "direction"], name="one_health_per_direction")]

    def __str__(self) -> str:
        return f"link {self.link_id} {self.direction}: {self.health}"


class PowerThreshold(models.Model):
    """Rx/Tx power limits of one link end's optic, reported by the device or set by hand.

    The catalog's values (TransceiverModel) are the third, lowest-priority source; a manual
    row wins over a device row, and ingest only ever writes device rows."""

    class Source(models.TextChoices):
        DEVICE = "device"
        MANUAL = "manual"

    link = models.ForeignKey(Link, on_delete=models.CASCADE, related_name="power_thresholds")
    side = models.CharField(max_length=1, choices=Side.choices)
    source = models.CharField(max_length=6, choices=Source.choices)
    input_power_lower_dbm = models.FloatField(null=True, blank=True)
    input_power_upper_dbm = models.FloatField(null=True, blank=True)
    output_power_lower_dbm = models.FloatField(null=True, blank=True)
    output_power_upper_dbm = models.FloatField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["link", "side", "source"]
        constraints = [
            models.UniqueConstraint(fields=["link", "side", "source"], name="one_threshold_per_end_and_source")
        ]

    def __str__(self) -> str:
        # In words: the audit log's Object ("Manual thresholds at end A of link #16").
        return f"{self.get_source_display()} thresholds at end {self.side.upper()} of link #{self.link_id}"


class CorruptionEvent(models.Model):
    """One episode of a direction being corrupting: opened on the transition to corrupting,
    ended on the transition back. The mitigation workflow consumes open events."""

    link = models.ForeignKey(Link, on_delete=models.CASCADE, related_name="corruption_events")
    direction = models.CharField(max_length=6, choices=Direction.choices)
    rate = models.FloatField(help_text="Corruption loss rate of the window that opened the event.")
    first_seen = models.DateTimeField()
    last_rate = models.FloatField()
    peak_rate = models.FloatField()
    last_seen = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-first_seen", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["link", "direction"],
                condition=models.Q(ended_at__isnull=True),
                name="one_open_event_per_direction",
            )
        ]
        indexes = [models.Index(fields=["ended_at", "first_seen"])]

    def __str__(self) -> str:
        return f"corruption on link {self.link_id} {self.direction} from {self.first_seen:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


class LinkForecast(models.Model):
    """The optics forecast of one link (docs/telemetry.md, "Forecasts: optics at risk"): when its
    worst lane's Rx or Tx power is forecast to cross its low limit, how sure the trend is, and the
    probable root cause. Written by derivation for the links whose trends moved; a link the engine
    does not report (no crossing within 4 horizons, no flag) has no row."""

    class Cause(models.TextChoices):
        DECAYING_TRANSMITTER = "decaying_transmitter", "decaying transmitter"
        CONTAMINATION = "contamination", "contamination"
        BENT_FIBER = "bent_fiber", "bent or damaged fiber"
        LOOSE_TRANSCEIVER = "loose_transceiver", "loose transceiver"
        UNKNOWN = "unknown", "unclear"

    class Quantity(models.TextChoices):
        RX = "rx", "Rx power"
        TX = "tx", "Tx power"

    class Provenance(models.TextChoices):  # as the thresholds' answers name them (ProvenanceEnum)
        MANUAL = "manual", "manual"
        DEVICE = "device", "device"
        CATALOG = "catalog", "catalog"

    # Both go with their link or fabric by ON DELETE CASCADE in the database (migration 0012): the
    # fabric app deletes with set-based SQL, and the ORM's collector need not look here.
    link = models.OneToOneField(Link, on_delete=models.DO_NOTHING, primary_key=True, related_name="forecast")
    fabric = models.ForeignKey("fabric.Fabric", on_delete=models.DO_NOTHING, related_name="+")
    computed_at = models.DateTimeField(help_text="The derivation time ('now') the forecast was made at.")
    crossing_at = models.DateTimeField(help_text="When the reading is forecast to reach its limit.")
    earliest_at = models.DateTimeField(help_text="The crossing under the steepest likely slope (10th percentile).")
    latest_at = models.DateTimeField(
        null=True, help_text="The crossing under the gentlest likely slope (90th percentile); null: it may never cross."
    )
    confidence = models.FloatField(help_text="Share of the trend's slopes under which it crosses within the horizon.")
    at_risk = models.BooleanField()
    cause = models.CharField(max_length=20, choices=Cause.choices)
    side = models.CharField(max_length=1, choices=Side.choices, help_text="The end whose reading crosses.")
    quantity = models.CharField(max_length=2, choices=Quantity.choices)
    lane = models.PositiveSmallIntegerField()
    # Null where the lane has no value to fit (a dark lane) or its quantity no limit (a flag only).
    level_dbm = models.FloatField(null=True, help_text="The trend's fitted level at its newest bucket, in dBm.")
    slope_db_per_day = models.FloatField(null=True, help_text="The trend's median slope, dB per day.")
    limit_dbm = models.FloatField(null=True, help_text="The low limit the forecast crosses.")
    # null, not "": the API's null for "none", without a blank choice beside the real ones.
    limit_provenance = models.CharField(  # noqa: DJ001
        max_length=7, choices=Provenance.choices, null=True, help_text="Where the limit comes from."
    )
    cause_side = models.CharField(  # noqa: DJ001
        max_length=1, choices=Side.choices, null=True, help_text="The end to act on; null when the cause names none."
    )

    class Meta:
        ordering = ["crossing_at", "link"]
        indexes = [models.Index(fields=["fabric", "at_risk"], name="forecast_fabric_at_risk")]

    def __str__(self) -> str:
        return f"forecast of link {self.link_id}: {self.cause} crossing {self.crossing_at:%Y-%m-%d %H:%M}"
