/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
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
      { wrapper: MemoryRouter },
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
      { wrapper: MemoryRouter },
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

  it("links each job to the page that shows its kind's result", () => {
    const kinds: Job[] = [
      { ...baseJob, id: 4, kind: 'corruption.simulate' },
      { ...baseJob, id: 5, kind: 'rail.plan' },
      { ...baseJob, id: 6, kind: 'rail.classes' },
      { ...baseJob, id: 7, kind: 'circuits.schedule' },
      { ...baseJob, id: 8, kind: 'sharebackup.plan' },
      { ...baseJob, id: 9, kind: 'larry.run' },
      { ...baseJob, id: 10, kind: 'fabric.import' },
    ];
    render(
      <JobsTable
        jobs={kinds}
        fabricNames={new Map()}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
      { wrapper: MemoryRouter },
    );
    expect(screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['#4', '/simulations/4'],
      ['#5', '/planning/plans/5'],
      ['#6', '/planning/classes/6'],
      ['#7', '/circuits/schedules/7'],
      ['#8', '/sharebackup/8'],
      ['#9', '/larry/9'],
    ]);
    // An import has no page of its own: its number is plain text.
    expect(screen.getByRole('rowheader', { name: '#10' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '#10' })).toBeNull();
  });
});
