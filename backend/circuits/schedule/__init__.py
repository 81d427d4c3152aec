"""Circuit schedules (job kind `circuits.schedule`): the engine's `circuit_plan` on a stored demand and
the racks of one circuit switch or of every circuit switch of a zone.

- Racks are the attached ToRs, indexed by (circuit switch name, ToR name); each switch is one engine
  zone (circuits never join racks of two switches). A rack's ports are its available optical ports
  (services.port_states: a port whose link is disabled, down or under an unresolved ticket is gone).
- The demand's windows are re-bucketed to the period: period k holds the windows starting in
  [k*T, (k+1)*T) after the first. Rows naming a ToR outside the selection are counted in `ignored`.
- The main algorithm runs, then each algorithm of `compare` on the same inputs (only its metrics
  are kept). Edge groups are scored on the main schedule.

The handler has no side effect but its result: a retried job recomputes the same answer.
"""

from .in_use import StillScheduled, refuse_delete_while_scheduled
from .params import JOB_KIND, validate_request
from .run import engine_arguments, plan_schedule
from .tables import METRIC_HEADER, SLOT_HEADER, metric_rows, slot_rows

__all__ = [
    "JOB_KIND",
    "METRIC_HEADER",
    "SLOT_HEADER",
    "StillScheduled",
    "engine_arguments",
    "metric_rows",
    "plan_schedule",
    "refuse_delete_while_scheduled",
    "slot_rows",
    "validate_request",
]
