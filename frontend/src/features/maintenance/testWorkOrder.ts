import type { LinkFacts, StartPreview, WorkOrderDetail } from './api/types';

const TOR = { switch: 38, name: 'p3-tor1', paths_before: 12, required_paths: 12, design_paths: 16, constraint: 0.75 };

const BREAKOUT = [101, 102, 103, 104].map((id, index) => ({
  id,
  name: `p3-tor1:eth2/${index + 1} - p3-fab${index}:eth1/2`,
}));

/** The demo's breakout cable order: one ticket on eth2/1, the cable takes its three siblings (corrupting too, as in the demo) down. */
export function testWorkOrder(overrides: Partial<WorkOrderDetail> = {}): WorkOrderDetail {
  return {
    id: 3,
    url: '/api/work-orders/3/',
    fabric: 1,
    state: 'open',
    action: 'replace_shared_component',
    component: 'breakout@38:eth2/1-4',
    component_name: 'breakout cable p3-tor1 eth2/1-4',
    location: {
      switch: 'p3-tor1',
      rack: 'p3-rack1',
      row: 'pod 3',
      port: 'eth2/1',
      far: { switch: 'p3-fab0', rack: 'fab-rack-0', row: 'pod 3', port: 'eth1/2' },
    },
    footprint: BREAKOUT.map((link) => link.id),
    footprint_size: 4,
    kinds: ['repair'],
    deadline: null,
    duration_s: 14400,
    success_chance: 0.8,
    tickets: [3],
    created: '2026-11-27T02:16:20Z',
    updated: '2026-11-27T02:16:20Z',
    started_at: null,
    started_by: null,
    finished_at: null,
    outcome: null,
    ticket_details: [
      {
        id: 3,
        state: 'open',
        link: 101,
        link_name: BREAKOUT[0]!.name,
        direction: 'z_to_a',
        recommended_action: 'replace_shared_component',
        rule: 'shared_component.breakout',
      },
    ],
    footprint_links: BREAKOUT.map((link, index) => ({
      ...link,
      admin_state: index === 0 ? 'disabled' : 'enabled',
      admin_reason: index === 0 ? 'corruption' : '',
      oper_state: 'up',
      health: 'corrupting',
      tor: 'p3-tor1',
    })),
    tors: ['p3-tor1'],
    guard: {
      verdict: 'unsafe',
      detail: 'Refused: p3-tor1 would fall to 0 of 16 up-paths, under the 12 its constraint (0.75) requires.',
      links: [102, 103, 104],
      affected_tors: [{ ...TOR, paths_after: 0 }],
      blocking_tors: [{ ...TOR, paths_after: 0 }],
    },
    restored_links: [],
    ...overrides,
  };
}

/** A dry run of starting it, by verdict (the server's shapes, contract-startwork.md). */
export function testPreview(verdict: StartPreview['verdict'], overrides: Partial<StartPreview> = {}): StartPreview {
  const base: StartPreview = {
    work_order: 3,
    verdict,
    detail:
      verdict === 'safe'
        ? 'Safe: p3-tor1 keeps 12 of 16 up-paths, the 12 it needs.'
        : 'p3-tor1 would fall to 0 of 16 up-paths, under the 12 its constraint (0.75) requires.',
    footprint: BREAKOUT,
    affected_tors: [{ ...TOR, paths_after: verdict === 'safe' ? 12 : 0 }],
    blocking_tors: verdict === 'safe' ? [] : [{ ...TOR, paths_after: 0 }],
    restoration: null,
    unreachable_tors: [],
    waits_for: [],
  };
  if (verdict === 'needs_restoration') {
    base.restoration = {
      links: [{ id: 40, name: 'p1-tor3:eth2/1 - p1-fab0:eth1/4', loss_rate: 3e-5, penalty: 1.2 }],
      added_penalty: 1.2,
      proven_optimal: true,
      needs_approval: true,
    };
  }
  if (verdict === 'blocked') {
    base.unreachable_tors = [
      { name: 'p3-tor1', paths_before: 12, paths_best: 8, floor: 12, required_paths: 12, design_paths: 16 },
    ];
    base.waits_for = [
      {
        work_order: 5,
        action: 'replace_cable',
        component_name: 'cable of p3-tor1:eth1/1 - p3-fab0:eth1/9',
        state: 'in_progress',
      },
    ];
  }
  return { ...base, ...overrides };
}

/** A footprint link's page as the work order page reads it (the demo's p3-tor1 uplinks). */
export function testLinkFacts(id: number, overrides: Partial<LinkFacts> = {}): LinkFacts {
  const index = id - 101;
  return {
    id,
    a_switch: 38,
    a_switch_name: 'p3-tor1',
    a_port: `eth2/${index + 1}`,
    z_switch: 45 + index,
    z_switch_name: `p3-fab${index}`,
    z_port: 'eth1/2',
    length_m: 4.7,
    fiber: 'MMF',
    speed_gbps: 100,
    components: {
      breakout: null,
      cable: { kind: 'breakout', name: 'breakout cable p3-tor1 eth2/1-4', siblings: [] },
      line_cards: { a: 'eth2', z: 'eth1' },
    },
    ...overrides,
  };
}
