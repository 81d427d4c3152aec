/** @vitest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { WorkOrderDetail } from '../api/types';
import { testLinkFacts, testWorkOrder } from '../testWorkOrder';
import { WorkOrderFootprint } from './WorkOrderFootprint';

const TOR = { switch: 21, name: 'p1-tor5', paths_before: 8, required_paths: 8, design_paths: 16, constraint: 0.5 };

const ORDER: WorkOrderDetail = {
  id: 3,
  url: '/api/work-orders/3/',
  fabric: 1,
  state: 'open',
  action: 'replace_shared_component',
  component: 'breakout@21:eth2/1-4',
  component_name: 'breakout cable p1-tor5 eth2/1-4',
  location: null,
  footprint: [53, 54, 55, 56],
  footprint_size: 4,
  kinds: ['repair'],
  deadline: null,
  duration_s: 14400,
  success_chance: 0.8,
  tickets: [2, 4],
  created: '2026-11-27T01:00:00Z',
  updated: '2026-11-27T01:05:00Z',
  started_at: null,
  started_by: null,
  finished_at: null,
  outcome: null,
  restored_links: [],
  ticket_details: [],
  footprint_links: [53, 54, 55, 56].map((id, index) => ({
    id,
    name: `p1-tor5:eth2/${index + 1} - p1-fab${index}:eth1/6`,
    admin_state: index < 2 ? 'disabled' : 'enabled',
    admin_reason: index < 2 ? 'corruption' : '',
    oper_state: 'up',
    health: index < 2 ? 'corrupting' : 'clean',
    tor: 'p1-tor5',
  })),
  tors: ['p1-tor5'],
  guard: {
    verdict: 'unsafe',
    detail: 'Refused: p1-tor5 would fall to 0 of 16 up-paths, under the 8 its constraint (0.5) requires.',
    links: [55, 56],
    affected_tors: [{ ...TOR, paths_after: 0 }],
    blocking_tors: [{ ...TOR, paths_after: 0 }],
  },
};

describe('WorkOrderFootprint', () => {
  it('names the siblings the repair takes down and why it cannot start now', () => {
    render(
      <MemoryRouter>
        <WorkOrderFootprint order={ORDER} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('work-order-summary')).toHaveTextContent(
      'Replace the shared component (breakout cable, line card or switch): breakout cable p1-tor5 eth2/1-4. Takes 4 links down for 240 min; succeeds 80% of the time.',
    );
    // The server's sentence once, not "not safe now" beside a start that a restoration may allow (trial item 11).
    const verdict = screen.getByTestId('work-order-verdict');
    expect(verdict.textContent).toMatch(/^Refused: p1-tor5 would fall to 0 of 16 up-paths/);
    expect(verdict).toHaveTextContent('Starting first asks whether a capacity restoration makes it possible.');
    expect(verdict).not.toHaveTextContent('would keep');
    expect(verdict).not.toHaveTextContent('Not safe to start now');
    const rows = screen.getAllByTestId('footprint-link');
    expect(rows.map((row) => within(row).getAllByRole('cell')[3]!.textContent)).toEqual([
      'already out',
      'already out',
      'yes',
      'yes',
    ]);
    expect(within(rows[2]!).getByRole('link')).toHaveAttribute('href', '/links/55');
    expect(screen.getByTestId('work-order-tors')).toHaveTextContent('p1-tor5');
    expect(screen.getByTestId('work-order-affected-tors')).toHaveTextContent('ToRs that lose up-paths: p1-tor5');
  });

  it('names the ToR that falls when the footprint is between fabric tiers', () => {
    const spine = { ...TOR, name: 'p3-tor2', paths_before: 16, required_paths: 10 };
    render(
      <MemoryRouter>
        <WorkOrderFootprint
          order={{
            ...ORDER,
            footprint_links: ORDER.footprint_links.map((link) => ({ ...link, tor: null })),
            tors: [],
            guard: { ...ORDER.guard, affected_tors: [{ ...spine, paths_after: 8 }], blocking_tors: [] },
          }}
        />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('work-order-tors')).toHaveTextContent(
      'ToRs on the footprint: none (its links are between fabric tiers',
    );
    expect(screen.getByTestId('work-order-affected-tors')).toHaveTextContent('ToRs that lose up-paths: p3-tor2');
  });

  it('says when the work is safe to start', () => {
    render(
      <MemoryRouter>
        <WorkOrderFootprint
          order={{ ...ORDER, guard: { ...ORDER.guard, verdict: 'safe', detail: 'Safe.', blocking_tors: [] } }}
        />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('work-order-verdict')).toHaveTextContent('Safe to start now. Safe.');
  });
});

describe('WorkOrderFootprint with the links’ components', () => {
  it('marks the healthy breakout siblings of the ticket’s link', () => {
    const order = testWorkOrder();
    const siblings = order.footprint_links.slice(1).map(({ id, name }) => ({ id, name }));
    const links = order.footprint_links.map((link) => ({
      ...testLinkFacts(link.id),
      components: {
        breakout: link.id === 101 ? { name: 'p3-tor1 eth2/1-4', explicit: false, side: 'a' as const, siblings } : null,
        cable: { kind: 'breakout' as const, name: 'breakout cable p3-tor1 eth2/1-4', siblings: [] },
        line_cards: { a: 'eth2', z: 'eth1' },
      },
    }));
    render(
      <MemoryRouter>
        <WorkOrderFootprint order={order} links={links} />
      </MemoryRouter>,
    );
    const rows = screen.getAllByTestId('footprint-link');
    expect(rows.map((row) => row.getAttribute('data-role'))).toEqual([
      'ticket',
      'breakout_sibling',
      'breakout_sibling',
      'breakout_sibling',
    ]);
    expect(rows[1]).toHaveTextContent('breakout sibling');
    expect(rows[0]).not.toHaveTextContent('breakout sibling');
  });

  it('calls a corrupting sibling corrupting and a healthy one healthy, each once', () => {
    // The ticket's link and eth2/2 corrupt; eth2/3 and eth2/4 are clean.
    const base = testWorkOrder();
    const order = testWorkOrder({
      footprint_links: base.footprint_links.map((link, index) => ({
        ...link,
        health: index < 2 ? 'corrupting' : 'clean',
      })),
    });
    const siblings = order.footprint_links.slice(1).map(({ id, name }) => ({ id, name }));
    const links = order.footprint_links.map((link) => ({
      ...testLinkFacts(link.id),
      components: {
        breakout: link.id === 101 ? { name: 'p3-tor1 eth2/1-4', explicit: false, side: 'a' as const, siblings } : null,
        cable: { kind: 'breakout' as const, name: 'breakout cable p3-tor1 eth2/1-4', siblings: [] },
        line_cards: { a: 'eth2', z: 'eth1' },
      },
    }));
    render(
      <MemoryRouter>
        <WorkOrderFootprint order={order} links={links} />
      </MemoryRouter>,
    );
    const why = screen.getAllByTestId('footprint-link').map((row) => within(row).getAllByRole('cell')[4]!.textContent);
    expect(why).toEqual([
      'its ticket’s link',
      'corrupting breakout sibling',
      'healthy breakout sibling',
      'healthy breakout sibling',
    ]);
  });
});
