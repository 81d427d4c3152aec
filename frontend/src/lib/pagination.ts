/** Offset-based paging helpers for the API's ?limit=&offset= lists. */

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Clamp a 1-based page number read from the URL to the pages that exist. */
export function clampPage(page: number, total: number, pageSize: number): number {
  if (!Number.isFinite(page) || page < 1) return 1;
  return Math.min(Math.floor(page), pageCount(total, pageSize));
}

export function pageOffset(page: number, pageSize: number): number {
  return (Math.max(1, Math.floor(page)) - 1) * pageSize;
}

/** "51–100 of 1,234", or "No rows" for an empty list. */
export function rangeLabel(total: number, offset: number, shown: number): string {
  if (total === 0 || shown === 0) return 'No rows';
  const format = (value: number) => value.toLocaleString('en-US');
  return `${format(offset + 1)}–${format(offset + shown)} of ${format(total)}`;
}

export function parsePageParam(value: string | null): number {
  const page = Number.parseInt(value ?? '1', 10);
  return Number.isFinite(page) && page >= 1 ? page : 1;
}
