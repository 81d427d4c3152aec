from celery import shared_task

from . import services


@shared_task(name="jobs.run_job", acks_late=True, reject_on_worker_lost=True)
def run_job(job_id: int) -> str:
    return services.run(job_id)
