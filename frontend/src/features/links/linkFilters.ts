import { LINK_HEALTHS, type LinkHealth } from '@/lib/linkHealth';

import type { LinkFilters } from './api/types';

const ADMIN_STATES = ['enabled', 'disabled'] as const;
const OPER_STATES = ['up', 'down'] as const;

function positiveInt(value: string | null): number | undefined {
  if (!value) return undefined;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/** Every known value of a repeated parameter, once each, in the canonical order. */
function someOf<T extends string>(values: string[], allowed: readonly T[]): T[] | undefined {
  const chosen = allowed.filter((candidate) => values.includes(candidate));
  return chosen.length > 0 ? chosen : undefined;
}

/** Filters live in the URL so a filtered view can be shared and survives reload. */
export function filtersFromSearchParams(params: URLSearchParams): LinkFilters {
  return {
    fabric: positiveInt(params.get('fabric')),
    admin_state: oneOf(params.get('admin_state'), ADMIN_STATES),
    oper_state: oneOf(params.get('oper_state'), OPER_STATES),
    switch: positiveInt(params.get('switch')),
    health: someOf(params.getAll('health'), LINK_HEALTHS),
    rx_low: params.get('rx_low') === 'true' ? true : undefined,
    flapping: params.get('flapping') === 'true' ? true : undefined,
    at_risk: params.get('at_risk') === 'true' ? true : undefined,
    corrupting_in_service: params.get('corrupting_in_service') === 'true' ? true : undefined,
  };
}

export function searchParamsFromFilters(filters: LinkFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === '') continue;
    // A repeated parameter means OR, as the API reads it.
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  if (page > 1) params.set('page', String(page));
  return params;
}

/** The health filter with one value switched on or off (undefined when none is left). */
export function toggleHealth(
  current: LinkHealth[] | undefined,
  health: LinkHealth,
  on: boolean,
): LinkHealth[] | undefined {
  const next = new Set(current ?? []);
  if (on) next.add(health);
  else next.delete(health);
  const ordered = LINK_HEALTHS.filter((candidate) => next.has(candidate));
  return ordered.length > 0 ? ordered : undefined;
}

/**
 * How many filters the form sets, for the folded "Filters" button on a phone; the switch has a
 * line of its own above the list, so it is not counted.
 */
export function activeFilterCount(filters: LinkFilters): number {
  return Object.entries(filters).filter(
    ([key, value]) => key !== 'switch' && value !== undefined && value !== '' && value !== false,
  ).length;
}
