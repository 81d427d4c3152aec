import { useQueries } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { LinkFacts, SwitchFacts, WorkOrder } from './types';

/**
 * Where each listed order's visit happens: the rack of the ToR end of its footprint's first link
 * (a footprint is one component, so one place). One link request per row (cached with the link
 * pages) and one switch request per fabric on the page.
 */
export function useOrderLocations(orders: readonly WorkOrder[]): Map<number, string> {
  const firstLinks = orders.flatMap((order) =>
    order.footprint.length > 0 ? [{ order, link: order.footprint[0] as number }] : [],
  );
  const links = useQueries({
    queries: firstLinks.map(({ link }) => ({
      queryKey: ['links', 'detail', link],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiClient.get<LinkFacts>(`/api/links/${link}/`, undefined, { signal }),
    })),
  });
  const namesByFabric = new Map<number, Set<string>>();
  firstLinks.forEach(({ order }, index) => {
    const link = links[index]?.data;
    if (!link) return;
    const names = namesByFabric.get(order.fabric) ?? new Set<string>();
    names.add(link.a_switch_name).add(link.z_switch_name);
    namesByFabric.set(order.fabric, names);
  });
  const fabrics = [...namesByFabric.entries()].map(([fabric, names]) => ({ fabric, names: [...names].sort() }));
  const switches = useQueries({
    queries: fabrics.map(({ fabric, names }) => ({
      queryKey: ['switches', 'list', { fabric, name: names }],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiClient.get<Page<SwitchFacts>>('/api/switches/', { fabric, name: names, limit: names.length }, { signal }),
    })),
  });
  const byName = new Map<string, SwitchFacts>();
  fabrics.forEach(({ fabric }, index) => {
    for (const item of switches[index]?.data?.results ?? []) byName.set(`${fabric}:${item.name}`, item);
  });
  const locations = new Map<number, string>();
  firstLinks.forEach(({ order }, index) => {
    const link = links[index]?.data;
    if (!link) return;
    const ends = [link.a_switch_name, link.z_switch_name].map((name) => byName.get(`${order.fabric}:${name}`));
    const tor = ends.find((end) => end?.tier === 0) ?? ends[0];
    if (tor) locations.set(order.id, tor.rack ? `${tor.rack} (${tor.name})` : tor.name);
  });
  return locations;
}
