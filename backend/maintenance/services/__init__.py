"""Maintenance domain logic: repairs' footprints and work orders (issue #18)."""

from .footprints import Repair, StepAdvice, duration_s, repairs, success_chance
from .work_orders import regroup

__all__ = ["Repair", "StepAdvice", "duration_s", "regroup", "repairs", "success_chance"]
