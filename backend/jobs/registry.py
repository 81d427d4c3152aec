"""Job kinds: each domain app registers the computations it runs in the background.

A handler takes the Job and a JobContext and returns a JSON-able result. Handlers must be
idempotent: with late acknowledgement a job whose worker died is run again from the start.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class JobKind:
    name: str
    handler: Callable[[Any, Any], dict]
    roles: frozenset[str]
    description: str
    needs_fabric: bool


KINDS: dict[str, JobKind] = {}


def job_kind(name: str, *, roles: set[str], description: str, needs_fabric: bool = True):
    def register(handler):
        KINDS[name] = JobKind(name, handler, frozenset(roles), description, needs_fabric)
        return handler

    return register
