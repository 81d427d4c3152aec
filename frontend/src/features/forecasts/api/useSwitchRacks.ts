import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { SwitchRack } from './types';

/** GET /api/switches/?fabric=&name=…: the racks of the switches at both ends of a page of rows (one request). */
export function useSwitchRacks(fabric: number, names: readonly string[]) {
  return useQuery({
    queryKey: ['switches', 'list', { fabric, name: [...names] }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<SwitchRack>>('/api/switches/', { fabric, name: [...names], limit: names.length }, { signal }),
    enabled: names.length > 0,
  });
}
