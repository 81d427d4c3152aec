from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Upper


def _substring_index(column: str, name: str) -> GinIndex:
    """Case-blind substring search (`icontains`, i.e. UPPER(x::text) LIKE '%Q%') through pg_trgm:
    the header's search (fabric.services.search)."""
    return GinIndex(OpClass(Upper(column), name="gin_trgm_ops"), name=name)


def _prefix_index(column: str, name: str) -> models.Index:
    """Case-blind prefix search (`istartswith`) through a btree that compares characters, not collation."""
    return models.Index(OpClass(Upper(column), name="text_pattern_ops"), name=name)


FRACTION = [MinValueValidator(0.0), MaxValueValidator(1.0)]
# A fiber run or an optic's reach: no link of a fabric (data-centre interconnect included) is
# 1,000 km long; a larger number is a typo or a unit mistake, refused with the row that has it.
LENGTH_M = [MinValueValidator(0.0), MaxValueValidator(1_000_000.0)]


class Fiber(models.TextChoices):
    MMF = "MMF", "multi-mode fiber"
    SMF = "SMF", "single-mode fiber"


class Fabric(models.Model):
    """A multi-tier Clos network. Tier 0 holds the ToRs; the last tier is the top."""

    name = models.CharField(max_length=100, unique=True)
    description = models.TextField(blank=True)
    tiers = ArrayField(models.CharField(max_length=32), help_text="Tier names bottom-up, e.g. tor, fabric, spine.")
    capacity_constraint = models.FloatField(
        default=0.75,
        validators=FRACTION,
        help_text="Fraction of each ToR's up-paths to the top tier that must stay available.",
    )
    # Telemetry derivation settings (docs/telemetry.md): loss rates are fractions, never percentages.
    # Defaults live in the database too, for rows written by SQL.
    telemetry_window_s = models.PositiveIntegerField(
        default=900,
        db_default=900,
        validators=[MinValueValidator(60)],
        help_text="Window over which counter deltas give a loss rate.",
    )
    corruption_action_threshold = models.FloatField(
        default=1e-6,
        db_default=1e-6,
        validators=FRACTION,
        help_text="Corruption loss rate at which a direction is corrupting.",
    )
    corruption_report_threshold = models.FloatField(
        default=1e-8,
        db_default=1e-8,
        validators=FRACTION,
        help_text="Corruption loss rate at which a direction is lossy.",
    )
    telemetry_min_packets = models.PositiveIntegerField(
        default=1000, db_default=1000, help_text="Fewest packets in a window for its corruption rate to count."
    )
    dark_end_is_down = models.BooleanField(
        default=True,
        db_default=True,
        help_text="An end whose every lane is dark for 2 consecutive polls counts as operationally down.",
    )
    auto_restore = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Capacity restorations need no operator: a technician may start a repair that needs one (lossy "
        "links re-enabled for its duration), and the capacity recovery after links go down is applied by itself.",
    )
    # Predictive optics (docs/telemetry.md, "Forecasts: optics at risk").
    forecast_horizon_days = models.PositiveSmallIntegerField(
        default=7,
        db_default=7,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text="A link is at risk when its optics are forecast to cross their limit within this many days.",
    )
    forecast_min_confidence = models.FloatField(
        default=0.8,
        db_default=0.8,
        validators=[MinValueValidator(0.5), MaxValueValidator(0.99)],
        help_text="Share of the trend's slopes under which the crossing falls within the horizon, for at risk.",
    )
    auto_preventive_tickets = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Open a preventive ticket by itself for each link that becomes at risk (not again while one is "
        "unresolved).",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Switch(models.Model):
    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="switches")
    name = models.CharField(max_length=100)
    tier = models.PositiveSmallIntegerField(help_text="0 = ToR.")
    pod = models.IntegerField(null=True, blank=True)
    plane = models.IntegerField(null=True, blank=True, help_text="Spine plane, for fabrics built in planes.")
    rack = models.CharField(max_length=100, blank=True, help_text="Rack or location.")
    vendor = models.CharField(max_length=100, blank=True)
    model = models.CharField(max_length=100, blank=True)
    capacity_constraint = models.FloatField(
        null=True, blank=True, validators=FRACTION, help_text="Per-ToR override of the fabric's constraint."
    )

    class Meta:
        ordering = ["fabric", "tier", "pod", "name"]
        constraints = [models.UniqueConstraint(fields=["fabric", "name"], name="switch_unique_name_per_fabric")]
        indexes = [
            models.Index(fields=["fabric", "tier"]),
            _substring_index("name", "switch_name_search"),
            # A name typed whole (a link's "a - b", a port's "tor1:") or its first characters.
            _prefix_index("name", "switch_name_prefix"),
            _substring_index("rack", "switch_rack_search"),
        ]
        verbose_name_plural = "switches"

    def __str__(self) -> str:
        return self.name

    @property
    def effective_capacity_constraint(self) -> float:
        if self.capacity_constraint is not None:
            return self.capacity_constraint
        return self.fabric.capacity_constraint


class Link(models.Model):
    """An optical link between adjacent tiers; side A is always the lower tier."""

    class AdminState(models.TextChoices):
        ENABLED = "enabled"
        DISABLED = "disabled"

    class OperState(models.TextChoices):
        UP = "up"
        DOWN = "down"

    class Health(models.TextChoices):
        """The worse of the link's two directions, derived from telemetry (docs/telemetry.md)."""

        UNKNOWN = "unknown"
        CLEAN = "clean"
        LOSSY = "lossy"
        CORRUPTING = "corrupting"

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="links")
    a_switch = models.ForeignKey(Switch, on_delete=models.CASCADE, related_name="links_up")
    a_port = models.CharField(max_length=64)
    z_switch = models.ForeignKey(Switch, on_delete=models.CASCADE, related_name="links_down")
    z_port = models.CharField(max_length=64)
    length_m = models.FloatField(null=True, blank=True, validators=LENGTH_M)
    fiber = models.CharField(max_length=3, choices=Fiber.choices, blank=True)
    speed_gbps = models.PositiveIntegerField(null=True, blank=True)
    admin_state = models.CharField(max_length=8, choices=AdminState.choices, default=AdminState.ENABLED)
    admin_reason = models.CharField(max_length=200, blank=True)
    admin_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    admin_changed_at = models.DateTimeField(null=True, blank=True)
    # Measured, never typed: telemetry's oper_status sets it (fabric.services.link_state).
    oper_state = models.CharField(max_length=4, choices=OperState.choices, default=OperState.UP)
    oper_changed_at = models.DateTimeField(null=True, blank=True, editable=False)
    flapping = models.BooleanField(
        db_default=False, editable=False, help_text="Changed operational state too often in the recent window."
    )
    # Stamped by a database trigger from one sequence whenever admin_state or oper_state changes,
    # so a process can bring its engine session up to date by reading only the newer rows
    # (docs/capacity-guard.md). Never written by the application.
    state_version = models.BigIntegerField(db_default=0, editable=False)
    # Kept current by the telemetry ingest, so that filtering and drawing 100K links needs no join.
    health = models.CharField(max_length=10, choices=Health.choices, db_default=Health.UNKNOWN, editable=False)
    rx_low = models.BooleanField(db_default=False, editable=False, help_text="Some side's Rx is low or dark.")
    # What links share physically (fabric.services.components): blank means "by the rule in
    # settings.PHYSICAL_COMPONENTS". Database defaults too: links are imported with COPY.
    breakout = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="Breakout group label, shared by the links of one breakout cable or transceiver in this fabric; "
        "blank: by the port rule.",
    )
    cable_id = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="Cable or patch-panel trunk the link rides, shared by every link on it in this fabric; "
        "blank: its own cable (or its breakout cable).",
    )
    a_line_card = models.CharField(
        max_length=64, blank=True, default="", db_default="", help_text="Line card of side A; blank: the port prefix."
    )
    z_line_card = models.CharField(
        max_length=64, blank=True, default="", db_default="", help_text="Line card of side Z; blank: the port prefix."
    )

    class Meta:
        ordering = ["fabric", "id"]
        constraints = [
            models.UniqueConstraint(fields=["a_switch", "a_port"], name="link_unique_a_port"),
            models.UniqueConstraint(fields=["z_switch", "z_port"], name="link_unique_z_port"),
        ]
        indexes = [
            models.Index(fields=["fabric", "admin_state"]),
            models.Index(fields=["fabric", "health"]),
            models.Index(fields=["fabric", "state_version"]),
            # A page of one fabric's links in id order (the API's list) reads this in order instead
            # of walking the primary key past every other fabric's links.
            models.Index(fields=["fabric", "id"], name="link_fabric_id_order"),
            # The links sharing an explicit breakout group or cable (most links have neither).
            models.Index(fields=["fabric", "breakout"], name="link_fabric_breakout", condition=~models.Q(breakout="")),
            models.Index(fields=["fabric", "cable_id"], name="link_fabric_cable", condition=~models.Q(cable_id="")),
            _prefix_index("a_port", "link_a_port_search"),
            _prefix_index("z_port", "link_z_port_search"),
        ]

    def __str__(self) -> str:
        return f"{self.a_switch.name}:{self.a_port} - {self.z_switch.name}:{self.z_port}"

    @property
    def usable(self) -> bool:
        return self.admin_state == self.AdminState.ENABLED and self.oper_state == self.OperState.UP


class TopologyVersion(models.Model):
    """Bumped by database triggers from one sequence whenever the fabric's switches or links are
    added or removed or a ToR's constraint changes: a process's engine session of the fabric is
    stale when this differs (docs/capacity-guard.md). Apart from the fabric row, which Django
    saves whole and would write back stale. Never written by the application."""

    # No database constraint: the link-delete trigger may write a row while the fabric itself is
    # being deleted. A row left behind names a fabric id that is never used again.
    fabric = models.OneToOneField(
        Fabric, primary_key=True, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    version = models.BigIntegerField()

    class Meta:
        db_table = "fabric_topology_version"

    def __str__(self) -> str:
        return f"topology version {self.version} of fabric {self.fabric_id}"


class TransceiverModel(models.Model):
    """A catalog entry: an optic technology with its rated reach and power thresholds, and what
    RAIL planning needs (docs/rail.md): its stretched reach per network reliability bound, price
    and where the price comes from."""

    class PriceSource(models.TextChoices):
        SEED = "seed", "published in the seed document"
        DEMO = "demo", "illustrative demo value"
        PLANNER = "planner", "entered by a planner"

    name = models.CharField(max_length=64, unique=True)
    speed_gbps = models.PositiveIntegerField()
    fiber = models.CharField(max_length=3, choices=Fiber.choices)
    reach_m = models.FloatField(validators=LENGTH_M, help_text="Rated reach in metres.")
    price_usd = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    price_source = models.CharField(max_length=8, choices=PriceSource.choices, blank=True)
    # A JSON list, not a child table: a part has two or three entries, always read and written
    # whole (the engine takes the same shape), and a table would add a join and an endpoint.
    stretch = models.JSONField(
        default=list,
        blank=True,
        help_text='Stretched reach per network reliability bound: [{"nrb": 0.99, "reach_m": 480.0}, ...].',
    )
    link_fec = models.BooleanField(default=False, help_text="The stretch reaches assume the switch's link FEC is on.")
    power_w = models.FloatField(null=True, blank=True, validators=[MinValueValidator(0.0)], help_text="Watts per part.")
    rx_power_min_dbm = models.FloatField(null=True, blank=True)
    rx_power_max_dbm = models.FloatField(null=True, blank=True)
    tx_power_min_dbm = models.FloatField(null=True, blank=True)
    tx_power_max_dbm = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["speed_gbps", "reach_m", "name"]

    def __str__(self) -> str:
        return self.name


class Transceiver(models.Model):
    """The optic plugged into one end of a link."""

    class Side(models.TextChoices):
        A = "a"
        Z = "z"

    link = models.ForeignKey(Link, on_delete=models.CASCADE, related_name="transceivers")
    side = models.CharField(max_length=1, choices=Side.choices)
    model = models.ForeignKey(TransceiverModel, on_delete=models.PROTECT, related_name="transceivers")
    serial = models.CharField(max_length=64, blank=True)
    installed_at = models.DateTimeField(null=True, blank=True)
    last_reseated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["link", "side"]
        constraints = [models.UniqueConstraint(fields=["link", "side"], name="transceiver_one_per_link_end")]
        # Most serials are blank (an import writes none): only the recorded ones are searched.
        indexes = [
            GinIndex(
                OpClass(Upper("serial"), name="gin_trgm_ops"),
                name="transceiver_serial_search",
                condition=~models.Q(serial=""),
            )
        ]

    def __str__(self) -> str:
        # In words: the audit log's Object ("QSFP28-SR4 at end A of link #16").
        return f"{self.model.name} at end {self.side.upper()} of link #{self.link_id}"
