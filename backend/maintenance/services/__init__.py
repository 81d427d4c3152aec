"""Maintenance domain logic: repairs' footprints and work orders (issue #18)."""

from .footprints import Repair, StepAdvice, duration_s, repairs, success_chance
from .work_orders import regroup, regroup_on_commit

__all__ = ["Repair", "StepAdvice", "duration_s", "regroup", "regroup_on_commit", "repairs", "success_chance"]
