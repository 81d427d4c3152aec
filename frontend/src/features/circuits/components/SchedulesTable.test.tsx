/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { ScheduleJobBrief } from '../api/types';
import { SchedulesTable } from './SchedulesTable';

const JOB: ScheduleJobBrief = {
  id: 12,
  url: '/api/jobs/12/',
  kind: 'circuits.schedule',
  kind_title: 'Circuit schedule',
  state: 'succeeded',
  progress: 1,
  message: 'done',
  error: '',
  fabric: 1,
  created_by: 'planner',
  created: '2026-11-22T23:00:00Z',
  started: '2026-11-22T23:00:01Z',
  finished: '2026-11-22T23:00:02Z',
  cancel_requested: false,
  attempts: 1,
  worker: 'worker-1:4242',
  heartbeat_at: '2026-11-22T23:00:02Z',
  demand: { id: 4, name: 'hot pairs', deleted: true },
  circuit_switches: [
    { id: 1, name: 'ocs-1', deleted: false },
    { id: 2, name: null, deleted: true },
  ],
  zone: null,
  algorithm: 'exact',
  mode: 'replay',
  summary: { slots: 7, optical_ratio: 0.5, uniform_ratio: 0.1, gap: 0, runtime_s: 0.1 },
};

describe('SchedulesTable', () => {
  it('marks a demand or switch deleted since the schedule ran, keeping the stored name', () => {
    render(
      <MemoryRouter>
        <SchedulesTable jobs={[JOB]} />
      </MemoryRouter>,
    );
    const cells = screen.getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toContain('hot pairs (deleted)');
    expect(cells).toContain('ocs-1, #2 (deleted)');
  });
});
