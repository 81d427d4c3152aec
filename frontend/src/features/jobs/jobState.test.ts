import { describe, expect, it } from 'vitest';

import { ACTIVE_POLL_MS, displayedProgress, IDLE_POLL_MS, isActive, jobsPollInterval, progressTone } from './jobState';

describe('job state helpers', () => {
  it('polls every second while any job is queued or running', () => {
    expect(jobsPollInterval([{ state: 'succeeded' }, { state: 'running' }])).toBe(ACTIVE_POLL_MS);
    expect(jobsPollInterval([{ state: 'queued' }])).toBe(ACTIVE_POLL_MS);
    expect(jobsPollInterval([{ state: 'failed' }, { state: 'cancelled' }])).toBe(IDLE_POLL_MS);
    expect(jobsPollInterval(undefined)).toBe(IDLE_POLL_MS);
  });

  it('knows which jobs can still be cancelled', () => {
    expect(isActive({ state: 'running' })).toBe(true);
    expect(isActive({ state: 'succeeded' })).toBe(false);
  });

  it('shows a full bar for succeeded jobs and keeps partial progress of failed ones', () => {
    expect(displayedProgress({ state: 'succeeded', progress: 0.98 })).toBe(1);
    expect(displayedProgress({ state: 'failed', progress: 0.4 })).toBe(0.4);
    expect(progressTone('failed')).toBe('failed');
    expect(progressTone('running')).toBe('active');
  });
});
