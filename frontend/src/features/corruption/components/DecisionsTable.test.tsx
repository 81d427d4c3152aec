/** @vitest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { Decision } from '../api/types';
import { DecisionsTable } from './DecisionsTable';

const KEPT: Decision = {
  id: 9,
  url: '/api/decisions/9/',
  fabric: 1,
  link: 101,
  link_name: 'p3-tor1:eth2/1 - p3-fab0:eth1/2',
  event: 6,
  kind: 'optimizer',
  action: 'kept',
  loss_rate_a_to_z: 0,
  loss_rate_z_to_a: 4.3e-5,
  penalty: 4.3e-5,
  affected: [
    {
      switch: 38,
      name: 'p3-tor1',
      threshold: 0.75,
      paths_after: 8,
      design_paths: 16,
      paths_before: 12,
      fraction_after: 0.5,
      required_paths: 12,
      fraction_before: 0.75,
    },
  ],
  blocking_tor: 38,
  blocking_tor_name: 'p3-tor1',
  blocking_tor_fraction: 0.75,
  blocking_tor_constraint: 0.7,
  engine_ms: 20,
  job: 31,
  created: '2026-11-26T17:12:01Z',
};

describe('DecisionsTable', () => {
  it('links an optimizer decision to its run and names the constraint in force now, not the stored one', () => {
    render(
      <MemoryRouter>
        <DecisionsTable decisions={[KEPT, { ...KEPT, id: 10, kind: 'fast_checker', job: null }]} />
      </MemoryRouter>,
    );
    const [optimizer, fast] = screen.getAllByTestId('decision-row');
    expect(within(optimizer!).getByRole('link', { name: 'optimizer run #31' })).toHaveAttribute(
      'href',
      '/optimizer/31',
    );
    expect(within(fast!).queryByTestId('decision-run')).toBeNull();
    expect(within(fast!).getByText(/by fast checker/)).toBeInTheDocument();
    expect(within(optimizer!).getByTestId('blocking-constraint')).toHaveTextContent('constraint now 0.70');
    // The ToR below is judged against 0.70 (needs ceil(0.7 × 16) = 12), never the stored 0.75.
    expect(within(optimizer!).getByText(/p3-tor1 0.75 → 0.50/)).toHaveTextContent(
      'p3-tor1 0.75 → 0.50 (12 → 8 of 16 paths, needs 12) — under its constraint 0.70',
    );
  });
});
