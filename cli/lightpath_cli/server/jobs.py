"""Starting server work: jobs submitted and followed to the end, and synchronous POSTs whose 400 is
one error line with every problem below it.

Following a job (the progress bar, Ctrl-C) is server/follow.py's, shared with `lightpath jobs watch`.
"""

from __future__ import annotations

from typing import Any

from ..context import CliContext
from .client import ApiClient
from .errors import ApiError, rejected
from .follow import start_and_follow
from .lookup import resolve_fabric

UPLOAD_TIMEOUT_S = 120.0  # an uploaded file (a trace, an event log, counters) may be megabytes


def post_or_reject(cli: CliContext, path: str, body: dict[str, Any], what: str) -> Any:
    """POST to a synchronous endpoint; a 400 becomes one error line with every problem below it."""
    with cli.client() as client:
        try:
            return client.post(path, body, timeout=UPLOAD_TIMEOUT_S)
        except ApiError as error:
            if error.status != 400:
                raise
            raise rejected(error, what) from error


def run_job(
    client: ApiClient,
    kind: str,
    params: dict[str, Any],
    *,
    fabric_id: int | None = None,
    what: str | None = None,
    where: str = "",
    interval: float,
    cancel_on_interrupt: bool,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Submit a job of `kind` (on a fabric, if given) to /api/jobs/, follow it with a progress bar on
    stderr, and return the succeeded job; a 400 or a job that does not succeed is an error line.
    `what` (default: the kind) and `where` (e.g. " on demo-fb") go into the messages."""
    body: dict[str, Any] = {"kind": kind, "params": params}
    if fabric_id is not None:
        body["fabric"] = fabric_id
    return start_and_follow(
        client,
        "/api/jobs/",
        body,
        what=what or kind,
        where=where,
        interval=interval,
        cancel_on_interrupt=cancel_on_interrupt,
        timeout=timeout,
    )


def run_job_on_server(
    cli: CliContext,
    kind: str,
    params: dict[str, Any],
    *,
    interval: float,
    cancel_on_interrupt: bool,
    fabric: str | None = None,
) -> dict[str, Any]:
    """run_job on a stored fabric named by the user (name or id), if given; returns the job's result."""
    with cli.client() as client:
        fabric_id = resolve_fabric(client, fabric)["id"] if fabric is not None else None
        job = run_job(
            client,
            kind,
            params,
            fabric_id=fabric_id,
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
            timeout=UPLOAD_TIMEOUT_S,
        )
    result: dict[str, Any] = job["result"]
    return result


def result_csv(client: ApiClient, job_id: int, table: str | None = None) -> str:
    """A job's result as CSV (GET /api/jobs/ID/result/?format=csv), one of its tables if named."""
    params = {"format": "csv"} if table is None else {"format": "csv", "table": table}
    return client.request("GET", f"/api/jobs/{job_id}/result/", params=params).text
