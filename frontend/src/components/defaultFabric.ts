import type { FabricChoice } from './FabricSelect';

/**
 * The fabric a form starts on: the one the URL names (`?fabric=` id or name), else the first;
 * null when there is no fabric.
 */
export function defaultFabric(fabrics: readonly FabricChoice[], requested: string | null): number | null {
  const named = requested
    ? fabrics.find((fabric) => String(fabric.id) === requested || fabric.name === requested)
    : undefined;
  return (named ?? fabrics[0])?.id ?? null;
}
