/** What the app and other features may use of jobs: the Job type, following and polling jobs, a job's status and the jobs page. */
export type { Job } from './api/types';
export { useJobOfKind } from './api/useJobOfKind';
export { JobStatus } from './components/JobStatus';
export { ACTIVE_POLL_MS, displayedProgress, isActive, jobsPollInterval, progressTone } from './jobState';
export { JobsPage } from './routes/JobsPage';
