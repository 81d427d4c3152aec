"""`python paused_worker.py <celery arguments>`: a Celery worker whose fast-checker decisions
(like every change through the capacity guard) pause between the guard's verdict on the fabric's
state and writing their outcome, a random 50 to 250 ms (random,
so that the two processes cannot fall into a rhythm where one always reads just after the other
commits). Without serialisation of decisions on one fabric, the pool test would then see a ToR
broken or a decision made on stale state.

With LIGHTPATH_TEST_PROGRESS_PAUSE_S set, every job also pauses that long after each progress
report: the optimizer reports once per link it applies, inside its transaction, so a test can
kill the worker while a job is half applied (test_optimizer_worker.py)."""

import os
import random
import sys
import time
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(BACKEND), str(BACKEND.parent)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

import django  # noqa: E402

django.setup()

from celery.__main__ import main  # noqa: E402

from fabric.services import link_state  # noqa: E402

evaluate = link_state._evaluate


def paused_evaluate(*args, **kwargs):
    verdict = evaluate(*args, **kwargs)
    time.sleep(random.uniform(0.05, 0.25))
    return verdict


link_state._evaluate = paused_evaluate  # forked pool processes inherit it

PROGRESS_PAUSE_S = float(os.environ.get("LIGHTPATH_TEST_PROGRESS_PAUSE_S") or 0)
if PROGRESS_PAUSE_S:
    from jobs.services import JobContext

    report_progress = JobContext.progress

    def paused_progress(self, fraction, message=""):
        report_progress(self, fraction, message)
        time.sleep(PROGRESS_PAUSE_S)

    JobContext.progress = paused_progress  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.argv[0] = "celery"
    sys.exit(main())
