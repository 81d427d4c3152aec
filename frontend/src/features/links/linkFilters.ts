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

/** Filters live in the URL so a filtered view can be shared and survives reload. */
export function filtersFromSearchParams(params: URLSearchParams): LinkFilters {
  return {
    fabric: positiveInt(params.get('fabric')),
    admin_state: oneOf(params.get('admin_state'), ADMIN_STATES),
    oper_state: oneOf(params.get('oper_state'), OPER_STATES),
    switch: positiveInt(params.get('switch')),
  };
}

export function searchParamsFromFilters(filters: LinkFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  if (page > 1) params.set('page', String(page));
  return params;
}
