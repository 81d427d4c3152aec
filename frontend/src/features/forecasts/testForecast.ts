/** Builds forecast answers for tests, shaped as the API returns them (GET /api/links/?at_risk=true, /forecast/). */
import type { AtRiskLink, ForecastCause, LinkForecast } from './api/types';

export const NOW = new Date('2026-11-27T08:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

export function inDays(days: number, from: Date = NOW): string {
  return new Date(from.getTime() + days * DAY).toISOString();
}

export function linkForecast(overrides: Partial<LinkForecast> = {}): LinkForecast {
  return {
    computed_at: NOW.toISOString(),
    crossing_at: inDays(3.2),
    earliest_at: inDays(2.1),
    latest_at: inDays(5),
    confidence: 0.87,
    at_risk: true,
    cause: 'contamination',
    cause_label: 'contamination',
    side: 'z',
    end: { switch: 'p0-fab0', port: 'eth1/1', rack: 'r2' },
    quantity: 'rx',
    lane: 2,
    level_dbm: -8.9,
    slope_db_per_day: -0.4,
    limit_dbm: -10,
    limit_provenance: 'catalog',
    cause_side: 'z',
    recommended_action: 'clean_fiber',
    recommended_action_label: 'Clean the connectors, p0-fab0:eth1/1 (end Z) first',
    ...overrides,
  };
}

let nextId = 1;

/** A link row of the at-risk list between the two switches `name` names ("p0-tor0 p0-fab0"), its brief forecast crossing in `days`. */
export function atRiskLink(
  name: string,
  days: number,
  { cause = 'contamination', confidence = 0.9 }: { cause?: ForecastCause; confidence?: number } = {},
): AtRiskLink {
  const id = nextId++;
  const [aSwitch = name, zSwitch = name] = name.split(' ');
  return {
    id,
    url: `http://testserver/api/links/${id}/`,
    fabric: 1,
    a_switch: 10 + id,
    a_switch_name: aSwitch,
    a_port: 'eth1',
    z_switch: 100 + id,
    z_switch_name: zSwitch,
    z_port: 'eth2',
    length_m: 10,
    fiber: 'SMF',
    speed_gbps: 100,
    admin_state: 'enabled',
    admin_reason: '',
    admin_changed_by: null,
    admin_changed_at: null,
    oper_state: 'up',
    oper_changed_at: null,
    flapping: false,
    health: 'clean',
    rx_low: false,
    breakout: '',
    cable_id: '',
    a_line_card: '',
    z_line_card: '',
    components: {
      breakout: null,
      cable: { kind: 'own', name: `${aSwitch}:eth1 - ${zSwitch}:eth2`, siblings: [] },
      line_cards: { a: 'eth1', z: 'eth2' },
    },
    forecast: { at_risk: true, crossing_at: inDays(days), cause, confidence },
  };
}
