/** @vitest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { FabricLink } from '../api/types';
import { LinksTable } from './LinksTable';

const LINK: FabricLink = {
  id: 47,
  url: '/api/links/47/',
  fabric: 1,
  a_switch: 16,
  a_switch_name: 'p1-tor3',
  a_port: 'eth2/3',
  a_rack: 'r-a',
  z_switch: 19,
  z_switch_name: 'p1-fab2',
  z_port: 'eth1/4',
  z_rack: '',
  length_m: 12,
  fiber: 'MMF',
  speed_gbps: 100,
  admin_state: 'enabled',
  admin_reason: '',
  admin_changed_by: null,
  admin_changed_at: null,
  oper_state: 'down',
  oper_changed_at: '2026-11-26T17:00:00Z',
  flapping: true,
  health: 'clean',
  rx_low: false,
  breakout: '',
  cable_id: '',
  a_line_card: '',
  z_line_card: '',
  components: {
    breakout: null,
    cable: { kind: 'own', name: 'p1-tor3:eth2/3 - p1-fab2:eth1/4', siblings: [] },
    line_cards: { a: 'eth2', z: 'eth1' },
  },
  forecast: null,
};

describe('LinksTable', () => {
  it('marks a flapping link beside its measured state, and only that one', () => {
    render(
      <MemoryRouter>
        <LinksTable links={[LINK, { ...LINK, id: 48, flapping: false }]} fabricNames={new Map([[1, 'demo-fb']])} />
      </MemoryRouter>,
    );
    const [flapping, steady] = screen.getAllByRole('row').slice(1);
    expect(within(flapping!).getByTestId('flapping')).toHaveTextContent('flapping');
    expect(flapping).toHaveAttribute('data-flapping', 'true');
    expect(within(steady!).queryByTestId('flapping')).toBeNull();
  });

  it('words an at-risk crossing as the At risk page does: "at its limit now" when it already was (trial 28 item 11)', () => {
    const made = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const atLimit: FabricLink = {
      ...LINK,
      forecast: {
        at_risk: true,
        computed_at: made,
        crossing_at: made,
        earliest_at: made,
        latest_at: made,
        cause: 'contamination',
        confidence: 1,
      },
    };
    render(
      <MemoryRouter>
        <LinksTable links={[atLimit]} fabricNames={new Map([[1, 'demo-fb']])} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('link-at-risk')).toHaveTextContent(/^At risk at its limit now$/);
  });

  it('shows both racks, a length with its unit and "no" for a link not at risk (trial 28 item 13)', () => {
    render(
      <MemoryRouter>
        <LinksTable
          links={[
            { ...LINK, length_m: 390 },
            { ...LINK, id: 48, length_m: 390.74 },
          ]}
          fabricNames={new Map([[1, 'demo-fb']])}
        />
      </MemoryRouter>,
    );
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    const [whole, fraction] = screen.getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    const cell = (row: HTMLElement, header: string) => within(row).getAllByRole('cell')[headers.indexOf(header)]!;
    expect(cell(whole, 'A rack')).toHaveTextContent('r-a');
    expect(cell(whole, 'Z rack')).toHaveTextContent('not recorded');
    expect(cell(whole, 'Length')).toHaveTextContent(/^390 m$/);
    expect(cell(fraction, 'Length')).toHaveTextContent(/^390.7 m$/);
    expect(cell(whole, 'At risk')).toHaveTextContent(/^no$/);
    expect(cell(whole, 'Fabric')).toHaveTextContent('demo-fb');
  });

  it('says it is updating while a new ordering loads, the old rows dimmed meanwhile', () => {
    render(
      <MemoryRouter>
        <LinksTable links={[LINK]} fabricNames={new Map()} busy />
      </MemoryRouter>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Updating…');
    expect(screen.getByTestId('links-table')).toHaveAttribute('aria-busy', 'true');
  });
});
