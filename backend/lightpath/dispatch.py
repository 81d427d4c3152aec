"""The one door from services to Celery: send a task by name to the queue of its purpose.

Services never import a `tasks.py` (data flows one way); they send by task name here. The queue
comes from the task routes in settings (`CELERY_TASK_ROUTES`: decisions, jobs, webhooks).

A send never raises: when the broker is down the caller's write has committed already and must
answer its 2xx, so `send` logs, returns False and leaves the work to the liveness net
(`jobs.liveness`), which finds what was not sent and sends it once the broker is back.
"""

import logging
from collections.abc import Sequence

from lightpath_worker import app as celery_app

logger = logging.getLogger(__name__)


def send(
    task: str,
    args: Sequence = (),
    *,
    queue: str | None = None,
    countdown: float | None = None,
    task_id: str | None = None,
) -> bool:
    """Hand `task(*args)` to the broker; True when the broker took it. `queue` overrides the
    route (a job's queue depends on its kind; tests run a worker on a queue of their own)."""
    # No result: a job keeps its own state and result in the database, and waiting on the result
    # backend would tie this request to Redis (its reconnection blocks for 20 s when it is down).
    options: dict = {"countdown": countdown or None, "task_id": task_id, "ignore_result": True}
    if queue is not None:
        options["queue"] = queue
    try:
        celery_app.send_task(task, args=list(args), **options)
    except Exception as exc:  # kombu raises transport-specific errors; any of them means "not sent"
        logger.warning("could not send %s%s to the broker (%s); the liveness net will", task, tuple(args), exc)
        return False
    return True
