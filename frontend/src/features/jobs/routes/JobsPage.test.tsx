/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lastQuery, page, renderListPage, toggleColumn } from '@/components/table/testListPage';

import type { JobRow } from '../api/types';
import { JobsPage } from './JobsPage';

const JOB: JobRow = {
  id: 31,
  url: '/api/jobs/31/',
  kind: 'corruption.optimize',
  kind_title: 'CorrOpt optimization',
  state: 'succeeded',
  progress: 1,
  message: '3 corrupting links: 1 disabled',
  error: '',
  fabric: 1,
  created_by: 'operator',
  created: '2026-11-27T10:00:00Z',
  started: '2026-11-27T10:00:01Z',
  finished: '2026-11-27T10:00:05Z',
  cancel_requested: false,
  attempts: 1,
  worker: 'w1:42',
  heartbeat_at: null,
};
const FAILED: JobRow = {
  ...JOB,
  id: 32,
  kind: 'fabric.capacity_report',
  kind_title: 'Fabric capacity report',
  state: 'failed',
  error: 'fabric vanished',
};

describe('JobsPage', () => {
  it("names kinds in the API's words and leaves the error of a succeeded job blank", async () => {
    renderListPage(<JobsPage />, '/jobs', '/jobs', () => page([JOB, FAILED]));
    const succeeded = await screen.findByRole('row', { name: /#31/ });
    expect(within(succeeded).getByText('CorrOpt optimization')).toBeInTheDocument();
    expect(succeeded).not.toHaveTextContent('corruption.optimize');
    const errorCell = within(succeeded).getAllByRole('cell')[6]!;
    expect(screen.getAllByRole('columnheader')[7]).toHaveTextContent('Error');
    expect(errorCell).toHaveTextContent(/^$/);
    const failed = screen.getByRole('row', { name: /#32/ });
    expect(within(failed).getByText('Fabric capacity report')).toBeInTheDocument();
    expect(within(failed).getByText('fabric vanished')).toBeInTheDocument();
  });

  it('sorts by a header: the request, the URL and the CSV link carry the ordering, the state filter too', async () => {
    const { asked, router } = renderListPage(<JobsPage />, '/jobs', '/jobs?state=failed&page_size=25', () =>
      page([FAILED]),
    );
    await screen.findByRole('row', { name: /#32/ });
    expect(lastQuery(asked, '/api/jobs/').get('ordering')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Kind' }));
    await waitFor(() => expect(lastQuery(asked, '/api/jobs/').get('ordering')).toBe('kind'));
    expect(lastQuery(asked, '/api/jobs/').get('state')).toBe('failed');
    expect(lastQuery(asked, '/api/jobs/').get('limit')).toBe('25');
    expect(router.state.location.search).toBe('?state=failed&page_size=25&ordering=kind');
    expect(screen.getByRole('columnheader', { name: /Kind/ })).toHaveAttribute('aria-sort', 'ascending');
    // The CSV is the page: the columns shown, in its order, without the Log and Cancel buttons.
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/jobs/?state=failed&ordering=kind&format=csv&columns=id%2Ckind%2Cfabric%2Cstate%2Cprogress%2Cmessage%2Cerror%2Ccreated%2Cfinished',
    );

    // Another state keeps the ordering and the page size.
    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'succeeded' } });
    expect(router.state.location.search).toBe('?state=succeeded&ordering=kind&page_size=25');
  });

  it('hides a column chosen off and remembers it', async () => {
    renderListPage(<JobsPage />, '/jobs', '/jobs', () => page([JOB]));
    await screen.findByRole('row', { name: /#31/ });
    await toggleColumn('Message');
    expect(screen.queryByRole('columnheader', { name: 'Message' })).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('lightpath.table.jobs')!)).toEqual(['message']);
    // A hidden column is not exported either.
    expect(
      new URL(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')!, 'http://x').searchParams.get(
        'columns',
      ),
    ).toBe('id,kind,fabric,state,progress,error,created,finished');
    // The job's number and its log button always stay.
    expect(screen.queryByRole('checkbox', { name: 'Job' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Log' })).toBeNull();
  });
});
