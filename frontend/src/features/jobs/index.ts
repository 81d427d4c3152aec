/** What other features may use of jobs: the Job type, following and polling jobs, and a job's status. */
export type { Job } from './api/types';
export { useJobOfKind } from './api/useJobOfKind';
export { JobStatus } from './components/JobStatus';
export { ACTIVE_POLL_MS, displayedProgress, isActive, jobsPollInterval, progressTone } from './jobState';
