/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lastQuery, page, renderListPage, toggleColumn } from '@/components/table/testListPage';

import type { Decision } from '../api/types';
import { DecisionsPage } from './DecisionsPage';

const DISABLED: Decision = {
  id: 9,
  url: '/api/decisions/9/',
  fabric: 1,
  link: 101,
  link_name: 'p3-tor1:eth2/1 - p3-fab0:eth1/2',
  event: 6,
  kind: 'fast_checker',
  action: 'disabled',
  loss_rate_a_to_z: 5.4e-4,
  loss_rate_z_to_a: 0,
  penalty: 5.4e-4,
  affected: [],
  blocking_tor: null,
  blocking_tor_name: null,
  blocking_tor_fraction: null,
  blocking_tor_constraint: null,
  engine_ms: 20,
  job: null,
  created: '2026-11-26T17:12:01Z',
};

describe('DecisionsPage', () => {
  it('writes the penalty as a power of ten and a decision without a blocking ToR as none', async () => {
    renderListPage(<DecisionsPage />, '/decisions', '/decisions', () => page([DISABLED]));
    const row = await screen.findByTestId('decision-row');
    expect(within(row).getByText('5.4 × 10⁻⁴')).toBeInTheDocument();
    expect(row).not.toHaveTextContent('e-4');
    expect(row).toHaveTextContent('none');
  });

  it('lists newest first until a header is chosen; the CSV follows the same order and filters', async () => {
    const { asked, router } = renderListPage(<DecisionsPage />, '/decisions', '/decisions?action=disabled', () =>
      page([DISABLED]),
    );
    await screen.findByTestId('decision-row');
    expect(lastQuery(asked, '/api/decisions/').get('ordering')).toBe('-created');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/decisions/?ordering=-created&action=disabled&format=csv&columns=created%2Caction%2Clink%2Cpenalty%2Caffected%2Cblocking_tor',
    );

    const penalty = screen.getByRole('columnheader', { name: /Penalty/ });
    fireEvent.click(within(penalty).getByRole('button'));
    fireEvent.click(within(penalty).getByRole('button'));
    await waitFor(() => expect(lastQuery(asked, '/api/decisions/').get('ordering')).toBe('-penalty'));
    expect(penalty).toHaveAttribute('aria-sort', 'descending');
    expect(router.state.location.search).toBe('?action=disabled&ordering=-penalty');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/decisions/?ordering=-penalty&action=disabled&format=csv&columns=created%2Caction%2Clink%2Cpenalty%2Caffected%2Cblocking_tor',
    );

    // A filter keeps the chosen ordering.
    fireEvent.click(screen.getByRole('checkbox', { name: /kept for capacity/ }));
    expect(router.state.location.search).toBe('?action=disabled&kept_for_capacity=true&ordering=-penalty');
  });

  it('hides a column chosen off; the link that names the row always stays', async () => {
    renderListPage(<DecisionsPage />, '/decisions', '/decisions', () => page([DISABLED]));
    await screen.findByTestId('decision-row');
    await toggleColumn('Blocking ToR');
    expect(screen.queryByRole('columnheader', { name: 'Blocking ToR' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Link' })).toBeNull();
  });
});
