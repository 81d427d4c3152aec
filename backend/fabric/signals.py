"""Signals of the fabric domain, for apps that react to it without the fabric app knowing them."""

from django.dispatch import Signal

# A fabric's capacity picture changed in a way that may let more corrupting links go: a capacity
# constraint was edited (fabric default or a ToR's override) or a link was enabled again. Sent
# inside the changing transaction with fabric_id, reason (one line for humans) and user; CorrOpt
# (corruption.optimizer) re-runs its optimizer once it commits.
capacity_changed = Signal()

# Links that were usable went down (telemetry's oper_status): a ToR may now be under its
# constraint. Sent inside the changing transaction with fabric_id and links (their ids); the
# maintenance app's capacity recovery (maintenance.services.recovery) runs once it commits.
capacity_lost = Signal()
