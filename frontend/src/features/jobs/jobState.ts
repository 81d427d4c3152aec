import type { Job, JobState } from './api/types';

export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export function isActive(job: Pick<Job, 'state'>): boolean {
  return job.state === 'queued' || job.state === 'running';
}

export const ACTIVE_POLL_MS = 1000;
/** Slow poll while nothing runs, so jobs started elsewhere (CLI, another tab) show up. */
export const IDLE_POLL_MS = 10_000;

export function jobsPollInterval(jobs: readonly Pick<Job, 'state'>[] | undefined): number {
  return jobs?.some(isActive) ? ACTIVE_POLL_MS : IDLE_POLL_MS;
}

export function progressTone(state: JobState): 'active' | 'done' | 'failed' | 'idle' {
  switch (state) {
    case 'queued':
      return 'idle';
    case 'running':
      return 'active';
    case 'succeeded':
      return 'done';
    case 'failed':
    case 'cancelled':
      return 'failed';
  }
}

/** A finished job shows a full bar only if it succeeded; otherwise how far it got. */
export function displayedProgress(job: Pick<Job, 'state' | 'progress'>): number {
  return job.state === 'succeeded' ? 1 : job.progress;
}
