"""Job kinds: each domain app registers the computations it runs in the background.

A handler takes the Job and a JobContext and returns a JSON-able result. Handlers must be
idempotent: with late acknowledgement a job whose worker died is run again from the start.

Every kind has a `title`, its name in words ("CorrOpt optimization"): the UI, search and the
Jobs CSV show it; the name (`corruption.optimize`) stays the API's code.

A kind may also declare:
- `validate(params, fabric) -> params`: checks the params when the job is submitted through the
  API and returns them cleaned (what the handler gets); raises lightpath.problems.InvalidParams
  listing every problem (collected with lightpath.problems.Problems),
  which the API answers as a 400.
- `csv_tables`: table name -> function turning the job's result into (header, rows), served by
  `GET /api/jobs/{id}/result/?format=csv&table=NAME` (the first table is the default).
- `summary(result) -> str`: one line saying what a succeeded job found, kept as its final `message`
  so job lists (which leave results out) can show it; without one the message is left empty
  (a bare "done" said nothing the state does not).
- `purpose`: the queue it runs on, "jobs" (batch, the default) or "decisions" (work that keeps the
  fabric safe and must not wait behind a batch: the optimizer).
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CsvTable = Callable[[dict], tuple[Sequence[str], Iterable[Sequence[Any]]]]


@dataclass(frozen=True)
class JobKind:
    name: str
    title: str
    handler: Callable[[Any, Any], dict]
    roles: frozenset[str]
    description: str
    needs_fabric: bool
    validate: Callable[[dict, Any], dict] | None = None
    csv_tables: Mapping[str, CsvTable] = field(default_factory=dict)
    summary: Callable[[dict], str] | None = None
    purpose: str = "jobs"


KINDS: dict[str, JobKind] = {}


def kind_title(name: str) -> str:
    """A kind's title; a kind no longer registered (an old job's) by its name."""
    kind = KINDS.get(name)
    return kind.title if kind else name


def kind_names() -> list[str]:
    """The registered kinds, sorted: the API's choices and the schema's JobKindEnum."""
    return sorted(KINDS)


def job_kind(
    name: str,
    *,
    title: str,
    roles: set[str],
    description: str,
    needs_fabric: bool = True,
    validate: Callable[[dict, Any], dict] | None = None,
    csv_tables: Mapping[str, CsvTable] | None = None,
    summary: Callable[[dict], str] | None = None,
    purpose: str = "jobs",
):
    def register(handler):
        KINDS[name] = JobKind(
            name,
            title,
            handler,
            frozenset(roles),
            description,
            needs_fabric,
            validate,
            dict(csv_tables or {}),
            summary,
            purpose,
        )
        return handler

    return register
