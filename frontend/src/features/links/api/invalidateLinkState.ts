import type { QueryClient } from '@tanstack/react-query';

/**
 * After a link's admin state changed (a link disabled or enabled, a switch drained or undrained):
 * the links, the switch, the fabric's topology and capacity, and the decisions and jobs (enabling
 * re-runs the optimizer) are refetched where they are shown.
 */
export async function invalidateLinkState(queryClient: QueryClient, fabricId: number): Promise<void> {
  await Promise.all(
    [
      ['links'],
      ['switches'],
      ['fabrics', 'topology', fabricId],
      ['fabrics', 'capacity', fabricId],
      ['fabrics', 'detail', fabricId],
      ['decisions'],
      ['jobs'],
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
