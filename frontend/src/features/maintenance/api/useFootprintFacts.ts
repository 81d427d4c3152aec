import { useQueries, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { LinkFacts, SwitchFacts, Transceiver } from './types';

/** The footprint is one component's links: a breakout cable is 4, a line card 16 or 48. */
const FOOTPRINT_LIMIT = 1000;

/**
 * What a technician brings and where they go, for the footprint's links: each link's ends, length
 * and fiber (GET /api/links/{id}/, shared with the link pages' cache), their transceivers (one
 * request) and the racks of the switches at their ends (one request). The order's answer names the
 * links; these are the physical facts the visit needs.
 */
export function useFootprintFacts(fabric: number, linkIds: readonly number[]) {
  const links = useQueries({
    queries: linkIds.map((id) => ({
      queryKey: ['links', 'detail', id],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiClient.get<LinkFacts>(`/api/links/${id}/`, undefined, { signal }),
    })),
  });
  const transceivers = useQuery({
    queryKey: ['transceivers', 'list', { link: [...linkIds] }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<Transceiver>>(
        '/api/transceivers/',
        { link: [...linkIds], limit: 2 * FOOTPRINT_LIMIT },
        { signal },
      ),
    enabled: linkIds.length > 0,
  });
  const loaded = links.flatMap((query) => (query.data ? [query.data] : []));
  const switchNames = [...new Set(loaded.flatMap((link) => [link.a_switch_name, link.z_switch_name]))].sort();
  const switches = useQuery({
    queryKey: ['switches', 'list', { fabric, name: switchNames }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<SwitchFacts>>(
        '/api/switches/',
        { fabric, name: switchNames, limit: switchNames.length },
        { signal },
      ),
    enabled: switchNames.length > 0 && loaded.length === linkIds.length,
  });
  return {
    links: loaded,
    transceivers: transceivers.data?.results ?? [],
    switches: switches.data?.results ?? [],
    /** Every link, its transceivers and its switches' racks are in: the visit's facts can be shown. */
    complete:
      linkIds.length === 0 || (loaded.length === linkIds.length && transceivers.isSuccess && switches.isSuccess),
    error: links.find((query) => query.error)?.error ?? transceivers.error ?? switches.error,
  };
}
