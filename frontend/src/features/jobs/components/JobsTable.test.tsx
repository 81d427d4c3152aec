/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Job } from '../api/types';
import { JobsTable } from './JobsTable';

const baseJob: Job = {
  id: 1,
  url: '/api/jobs/1/',
  kind: 'fabric.capacity_report',
  state: 'running',
  progress: 0.4,
  message: 'Counting paths',
  result: null,
  error: '',
  fabric: 7,
  created_by: 'planner',
  created: '2025-01-01T10:00:00Z',
  started: '2025-01-01T10:00:01Z',
  finished: null,
};

const jobs: Job[] = [
  baseJob,
  { ...baseJob, id: 2, state: 'succeeded', progress: 1, message: 'done', finished: '2025-01-01T10:01:00Z' },
  { ...baseJob, id: 3, state: 'failed', progress: 0.25, error: 'fabric vanished' },
];

describe('JobsTable', () => {
  it('shows a progress bar per job and the error of failed ones', () => {
    render(
      <JobsTable
        jobs={jobs}
        fabricNames={new Map([[7, 'demo-fb']])}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
    );
    expect(screen.getAllByTestId('job-progress').map((bar) => bar.getAttribute('aria-valuenow'))).toEqual([
      '40',
      '100',
      '25',
    ]);
    expect(screen.getByText('fabric vanished')).toBeInTheDocument();
    expect(screen.getAllByText('demo-fb')).toHaveLength(3);
  });

  it('offers Cancel only where the user may cancel and only for active jobs', () => {
    const { rerender } = render(
      <JobsTable
        jobs={jobs}
        fabricNames={new Map()}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
    );
    expect(screen.queryByRole('button', { name: /Cancel job/ })).toBeNull();
    rerender(
      <JobsTable
        jobs={jobs}
        fabricNames={new Map()}
        canCancel={() => true}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
    );
    expect(
      screen.getAllByRole('button', { name: /Cancel job/ }).map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Cancel job 1']);
  });
});
