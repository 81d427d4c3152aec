/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { MaintenancePlan } from '../api/types';
import { PlanResultView } from './PlanResultView';

const START = '2026-11-27T08:00:00Z';
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();

function visit(technician: number, name: string, work_order: number, start_s: number, end_s: number) {
  return {
    technician,
    technician_name: name,
    work_order,
    start_s,
    end_s,
    start_at: at(start_s),
    end_at: at(end_s),
    links_down: [],
    restored: [],
  };
}

function order(id: number, component_name: string, rack: string) {
  return {
    id,
    action: 'reseat_transceiver',
    component_name,
    rack,
    row: 'p0',
    penalty_rate: 0.1,
    forecast_penalty_rate: 0,
    safe_alone: true,
    restoration: null,
  };
}

const TOR = { id: 38, name: 'p3-tor1' };

const PLAN: MaintenancePlan = {
  fabric: { id: 1, name: 'demo-fb' },
  technicians: 2,
  assignees: ['technician', 'alice'],
  shift_start: START,
  shift_s: 8 * 3600,
  travel: { same_rack_s: 300, same_row_s: 600, elsewhere_s: 900 },
  visits: [visit(0, 'technician', 1, 0, 1800), visit(0, 'technician', 4, 2400, 3300), visit(1, 'alice', 3, 600, 4200)],
  unscheduled: [2],
  left_for_later: [
    {
      work_order: 2,
      reason: 'never_safe',
      detail: 'its footprint leaves p3-tor1 with 8 of 16 up-paths, under the 12 it needs',
    },
  ],
  expected_penalty_hours: 612.34,
  fifo_penalty_hours: 1310.44,
  lower_bound: 612.34,
  gap: 0,
  proven_optimal: true,
  headroom: [
    { start_s: 0, end_s: 600, worst_tor: TOR, spare_paths: 2, paths: 14, required_paths: 12, visits: [1] },
    { start_s: 600, end_s: 1800, worst_tor: TOR, spare_paths: 0, paths: 12, required_paths: 12, visits: [1, 3] },
    { start_s: 1800, end_s: 28800, worst_tor: TOR, spare_paths: 4, paths: 16, required_paths: 12, visits: [4] },
  ],
  work_orders: [
    order(1, 'transceiver at p0-tor1:eth1', 'p0-rack1'),
    order(2, 'breakout cable p3-tor1 eth2/1-4', 'p3-rack1'),
    order(3, 'fiber of p1-tor2:eth3', 'p1-rack2'),
    order(4, 'transceiver at p0-tor1:eth2', 'p0-rack1'),
  ],
};

function renderPlan(plan: MaintenancePlan = PLAN) {
  render(
    <MemoryRouter>
      <PlanResultView plan={plan} plannedAt="2026-11-27T07:58:00Z" />
    </MemoryRouter>,
  );
}

describe('PlanResultView', () => {
  it('draws a bar per visit on its technician’s lane and lists the same visits in the table', () => {
    renderPlan();
    expect(screen.getAllByTestId('timeline-lane')).toHaveLength(2);
    const bars = screen.getAllByTestId('timeline-bar');
    expect(bars.map((bar) => bar.dataset.workOrder)).toEqual(['1', '4', '3']);
    const rows = within(screen.getByTestId('plan-visits')).getAllByTestId('plan-visit-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'technician2026-11-27 08:00–08:30 UTC#1Reseat the transceiver: transceiver at p0-tor1:eth1p0-rack1',
      'technician2026-11-27 08:40–08:55 UTC#4Reseat the transceiver: transceiver at p0-tor1:eth2p0-rack1',
      'alice2026-11-27 08:10–09:10 UTC#3Reseat the transceiver: fiber of p1-tor2:eth3p1-rack2',
    ]);
  });

  it('colours the headroom strip red at no spare path and names the worst ToR in its tooltip', () => {
    renderPlan();
    const segments = screen.getAllByTestId('headroom-segment');
    expect(segments.map((segment) => segment.dataset.tone)).toEqual(['low', 'none', 'ok']);
    expect(segments[1]!.querySelector('title')?.textContent).toBe('p3-tor1: 0 spare paths (12 up, needs 12)');
  });

  it('greys the strip where no visit is under way and says once which ToRs are short before any work', () => {
    renderPlan({
      ...PLAN,
      headroom: [
        ...PLAN.headroom.slice(0, 2),
        {
          start_s: 1800,
          end_s: 28800,
          worst_tor: null,
          spare_paths: null,
          paths: null,
          required_paths: null,
          visits: [],
        },
      ],
      short_before: [{ id: 45, name: 'p1-tor3', paths: 8, required_paths: 12 }],
    });
    const segments = screen.getAllByTestId('headroom-segment');
    expect(segments.map((segment) => segment.dataset.tone)).toEqual(['low', 'none', 'idle']);
    expect(segments[2]!.querySelector('title')?.textContent).toBe('No visit under way');
    expect(screen.getByRole('list', { name: 'Headroom colours' })).toHaveTextContent('no visit under way');
    expect(screen.getAllByTestId('plan-short-before')).toHaveLength(1);
    expect(screen.getByTestId('plan-short-before')).toHaveTextContent(
      'p1-tor3 is already under its requirement (8 of 12 paths): no visit may take it lower.',
    );
  });

  it('says nothing of short ToRs when none is', () => {
    renderPlan();
    expect(screen.queryByTestId('plan-short-before')).toBeNull();
  });

  it('gives the totals against first in first out, and what waits for later', () => {
    renderPlan();
    expect(screen.getByTestId('plan-penalty')).toHaveTextContent('612.3');
    expect(screen.getByTestId('plan-fifo')).toHaveTextContent('1,310.4');
    expect(screen.getByTestId('plan-totals')).toHaveTextContent('53.3% less than first in first out');
    expect(screen.getByTestId('plan-quality')).toHaveTextContent('Proven optimal');
    expect(screen.getByTestId('left-for-later')).toHaveTextContent(
      'Work order #2 — Never safe to take down: its footprint leaves p3-tor1',
    );
    expect(within(screen.getByTestId('left-for-later')).getByRole('link', { name: 'Work order #2' })).toHaveAttribute(
      'href',
      '/work-orders/2',
    );
  });

  it('names a tapped bar’s order with a link to it', () => {
    renderPlan();
    fireEvent.click(screen.getAllByTestId('timeline-bar')[2]!);
    const picked = screen.getByTestId('timeline-picked');
    expect(picked).toHaveTextContent('Work order #3: Reseat the transceiver, fiber of p1-tor2:eth3 — alice');
    expect(within(picked).getByRole('link')).toHaveAttribute('href', '/work-orders/3');
  });
});
