import { describe, expect, it } from 'vitest';

import type { Evidence, EvidenceOptics } from './api/types';
import { decisiveEvidence, historySummary, neighbourRows, opticsRows, reseatSummary } from './evidence';
import { describeRule, stepStatus } from './repairActions';

const thresholds = {
  input_power_lower_dbm: { value: -10.3, provenance: 'catalog' },
  input_power_upper_dbm: { value: 2.4, provenance: 'catalog' },
  output_power_lower_dbm: { value: -8.4, provenance: 'catalog' },
};

function optics(overrides: Partial<EvidenceOptics>): EvidenceOptics {
  return {
    end: 'sw:eth1',
    transceiver_model: '100G-SR4',
    optical_time: '2026-11-22T19:56:00+00:00',
    rx_dbm: -2,
    rx_min_lane_dbm: -2.2,
    tx_dbm: -1,
    tx_min_lane_dbm: -1.1,
    rx_no_light: false,
    tx_no_light: false,
    rx_low: false,
    tx_low: false,
    thresholds,
    ...overrides,
  };
}

// The demo's decaying transmitter, as recommend() wrote it.
const farTxLow: Evidence = {
  direction: 'a_to_z',
  local_end: 'z',
  far_end: 'a',
  rates: { this: 8.523e-6, opposite: 0, opposite_corrupting: false, onset: '2026-11-22T01:46:00+00:00' },
  optics: {
    local: optics({ end: 'p0-fab2:eth1/5', rx_dbm: -13.76, rx_min_lane_dbm: -13.94, rx_low: true }),
    far: optics({ end: 'p0-tor4:eth2/3', tx_dbm: -13.44, tx_min_lane_dbm: -13.6, tx_low: true }),
  },
  has_optical_data: true,
  neighbours: [],
  reseat: { last_reseated_at: null, source: null, recent: false, episode_start: null, window_days: 7 },
  history: [],
  failed_actions: [],
};

describe('evidence on the ticket page', () => {
  it('puts each reading beside its limit and marks the one the rule fired on', () => {
    const rows = opticsRows(farTxLow, 'far_tx_low');
    expect(rows.map((row) => row.label)).toEqual([
      'Rx at Z (receiving end)',
      'Tx at A (far end)',
      'Rx at A (far end)',
      'Tx at Z (receiving end)',
    ]);
    const farTx = rows.find((row) => row.key === 'far_tx')!;
    expect(farTx).toMatchObject({ value: -13.6, average: -13.44, limit: -8.4, provenance: 'catalog', low: true });
    expect(farTx.comparison).toBe('−13.6 dBm ≤ −8.4 dBm');
    expect(farTx.decisive).toBe(true);
    const localRx = rows.find((row) => row.key === 'local_rx')!;
    expect(localRx.comparison).toBe('−13.9 dBm < −10.3 dBm');
    // Low too, but the far Tx rule matched first: only that row is marked.
    expect(localRx.decisive).toBe(false);
    expect(rows.find((row) => row.key === 'far_rx')!.comparison).toBe('−2.2 dBm ≥ −10.3 dBm');
  });

  it('says "no light" for a dark receiver and names a missing limit', () => {
    const dark: Evidence = {
      ...farTxLow,
      optics: {
        local: optics({ rx_no_light: true, rx_low: true, rx_dbm: null, rx_min_lane_dbm: null }),
        far: optics({ thresholds: {} }),
      },
    };
    const rows = opticsRows(dark, 'local_rx_low');
    expect(rows[0]).toMatchObject({ key: 'local_rx', dark: true, comparison: 'no light', decisive: true });
    expect(rows[1]!.comparison).toBe('no limit known');
  });

  it('knows which facts each rule of Algorithm 1 reads', () => {
    expect(decisiveEvidence('shared_component.breakout')).toEqual(['neighbours']);
    expect(decisiveEvidence('opposite_direction')).toEqual(['opposite']);
    expect(decisiveEvidence('both_rx_low')).toEqual(['local_rx', 'far_rx']);
    expect(decisiveEvidence('reseated_recently')).toEqual(['reseat']);
    expect(decisiveEvidence('escalation.clean_fiber')).toEqual(['history']);
  });

  it('explains a history-based escalation', () => {
    const escalated: Evidence = {
      ...farTxLow,
      history: [
        {
          action_recommended: 'clean_fiber',
          action_taken: 'clean_fiber',
          time: '2026-11-20T10:00:00Z',
          outcome: 'recurred',
        },
      ],
      failed_actions: ['clean_fiber'],
    };
    expect(historySummary(escalated)).toBe(
      'Tried so far: cleaned fiber (recurred). Not repeated because corruption returned after it: cleaned fiber.',
    );
    expect(describeRule('escalation.clean_fiber')).toBe(
      'History: “cleaned fiber” was done and corruption returned, so the next step escalates',
    );
    expect(historySummary(farTxLow)).toBeNull();
  });

  it('describes the reseat record and neighbours', () => {
    expect(reseatSummary(farTxLow)).toBe('No reseat on record (recent means within 7 days or this fault episode).');
    const recent: Evidence = {
      ...farTxLow,
      reseat: {
        last_reseated_at: '2026-11-21T08:30:00Z',
        source: 'history',
        recent: true,
        episode_start: null,
        window_days: 7,
      },
      neighbours: [
        {
          end: 'z',
          switch: 'p1-tor5',
          port: 'eth2/4',
          links: [
            {
              link: 55,
              name: 'p1-tor5:eth2/3 - p1-fab2:eth1/6',
              switch: 'p1-tor5',
              port: 'eth2/3',
              direction: 'z_to_a',
              rate: 3.99e-5,
              first_seen: '2026-11-22T01:00:00Z',
              same_breakout_group: true,
              same_line_card: true,
              onset_within_window: true,
              rate_within_ratio: true,
            },
          ],
        },
      ],
    };
    expect(reseatSummary(recent)).toBe(
      'Last reseated 2026-11-21 08:30 UTC (from this ticket); counts as recent (recent means within 7 days or this fault episode).',
    );
    expect(neighbourRows(recent)).toEqual([
      {
        link: 55,
        name: 'p1-tor5:eth2/3 - p1-fab2:eth1/6',
        where: 'p1-tor5 eth2/3',
        rate: '4.0 × 10⁻⁵',
        firstSeen: '2026-11-22T01:00:00Z',
        relation: 'same breakout group, started within the window, similar rate',
      },
    ]);
  });
});

describe('step status', () => {
  it('tells a step not acted on from one being validated', () => {
    expect(stepStatus({ action_taken: '', outcome: 'pending' })).toBe('not acted on yet');
    expect(stepStatus({ action_taken: 'clean_fiber', outcome: 'pending' })).toBe('being validated');
    expect(stepStatus({ action_taken: 'clean_fiber', outcome: 'recurred' })).toBe('corruption returned');
  });
});
