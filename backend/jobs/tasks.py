from celery import shared_task

from . import liveness, services


@shared_task(name="jobs.run_job", acks_late=True, reject_on_worker_lost=True)
def run_job(job_id: int) -> str:
    return services.run(job_id)


@shared_task(name="jobs.sweep", ignore_result=True)
def sweep() -> dict:
    """Every 30 s (beat): send again the jobs whose message or worker was lost (jobs/liveness.py)."""
    return liveness.sweep()
