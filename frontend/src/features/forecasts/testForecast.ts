/** Builds forecast answers for tests, shaped as the API returns them (GET /api/links/{id}/forecast/, /api/link-forecasts/). */
import type { LinkForecast, LinkForecastRow } from './api/types';

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

/**
 * A row of GET /api/link-forecasts/ for the link between the two switches `name` names
 * ("p0-tor0 p0-fab0"), A rack and Z rack `racks` ('' for a switch without one), its forecast `overrides`,
 * and the link's unresolved ticket (none by default).
 */
export function atRiskRow(
  name: string,
  overrides: Partial<LinkForecast> = {},
  racks: [string, string] = ['r01', 'r90'],
  ticket: LinkForecastRow['ticket'] = null,
): LinkForecastRow {
  const id = nextId++;
  const [aSwitch = name, zSwitch = name] = name.split(' ');
  return {
    ...linkForecast(overrides),
    link: {
      id,
      name: `${aSwitch}:eth1 - ${zSwitch}:eth2`,
      a: { switch: aSwitch, port: 'eth1', rack: racks[0] || null },
      z: { switch: zSwitch, port: 'eth2', rack: racks[1] || null },
    },
    ticket,
  };
}
