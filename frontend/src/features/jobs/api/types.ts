export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface Job {
  id: number;
  url: string;
  kind: string;
  state: JobState;
  /** Fraction done, 0..1. */
  progress: number;
  message: string;
  result: Record<string, unknown> | null;
  error: string;
  fabric: number | null;
  created_by: string | null;
  created: string;
  started: string | null;
  finished: string | null;
}
