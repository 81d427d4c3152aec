/**
 * A list page's table state: ordering, page and page size live in the URL (a sorted, filtered
 * view can be shared and survives reload); which columns are hidden lives in localStorage
 * (a person's preference, not part of what they share).
 */

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 50;

/** URL parameters the table owns; every other parameter is the page's filters. */
export const TABLE_PARAMS = ['ordering', 'page', 'page_size'] as const;

export interface Ordering {
  /** The API's ordering field (`?ordering=`). */
  field: string;
  descending: boolean;
}

/** The ordering in the URL when the table can sort by it, else undefined (the server's default). */
export function orderingFromParams(params: URLSearchParams, sortable: readonly string[]): Ordering | undefined {
  const raw = params.get('ordering');
  if (!raw) return undefined;
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  return sortable.includes(field) ? { field, descending } : undefined;
}

export function orderingParam(ordering: Ordering): string {
  return `${ordering.descending ? '-' : ''}${ordering.field}`;
}

/** A click on a column's header: ascending first, then descending, then the server's default. */
export function nextOrdering(current: Ordering | undefined, field: string): Ordering | undefined {
  if (current?.field !== field) return { field, descending: false };
  return current.descending ? undefined : { field, descending: true };
}

export function ariaSort(current: Ordering | undefined, field: string): 'ascending' | 'descending' | 'none' {
  if (current?.field !== field) return 'none';
  return current.descending ? 'descending' : 'ascending';
}

export function pageSizeFromParams(params: URLSearchParams): PageSize {
  const size = Number(params.get('page_size'));
  return PAGE_SIZES.find((candidate) => candidate === size) ?? DEFAULT_PAGE_SIZE;
}

/**
 * `params` with the table's state changed. A new ordering or page size starts again at page 1;
 * the defaults (no ordering, 50 rows, page 1) leave no parameter behind.
 */
export function withTableState(
  params: URLSearchParams,
  change: { ordering?: Ordering | null; pageSize?: PageSize; page?: number },
): URLSearchParams {
  const next = new URLSearchParams(params);
  if (change.ordering !== undefined || change.pageSize !== undefined) next.delete('page');
  if (change.ordering !== undefined) {
    if (change.ordering === null) next.delete('ordering');
    else next.set('ordering', orderingParam(change.ordering));
  }
  if (change.pageSize !== undefined) {
    if (change.pageSize === DEFAULT_PAGE_SIZE) next.delete('page_size');
    else next.set('page_size', String(change.pageSize));
  }
  if (change.page !== undefined) {
    if (change.page > 1) next.set('page', String(change.page));
    else next.delete('page');
  }
  return next;
}

/**
 * The CSV export of exactly what the table lists: the page's filters and ordering, every row
 * (no page, no page size). TableToolbar adds the columns shown (`withCsvColumns`).
 */
export function csvExportHref(
  endpoint: string,
  query: Record<string, unknown>,
  ordering: Ordering | undefined,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  if (ordering) params.set('ordering', orderingParam(ordering));
  params.set('format', 'csv');
  return `${endpoint}?${params.toString()}`;
}

/** `href` (a csvExportHref) limited to `columns`, in that order (the API's `columns=`). */
export function withCsvColumns(href: string, columns: readonly string[]): string {
  if (columns.length === 0) return href;
  const [path, query = ''] = href.split('?', 2);
  const params = new URLSearchParams(query);
  params.set('columns', columns.join(','));
  return `${path}?${params.toString()}`;
}

/**
 * The keys of the columns the CSV should carry: those shown (required or not hidden), in the page's
 * order, leaving out the ones with nothing to export (a button).
 */
export function exportedColumnKeys(
  columns: readonly { key: string; required?: boolean; csv?: boolean }[],
  hidden: readonly string[],
): string[] {
  return columns
    .filter((column) => column.csv !== false && (column.required || !hidden.includes(column.key)))
    .map((column) => column.key);
}

const STORAGE_PREFIX = 'lightpath.table.';

/** The hidden columns a person chose for table `tableId`, keeping only columns that still exist. */
export function loadHiddenColumns(storage: Storage, tableId: string, columns: readonly string[]): string[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(STORAGE_PREFIX + tableId) ?? '[]');
    return Array.isArray(stored) ? columns.filter((column) => stored.includes(column)) : [];
  } catch {
    return []; // a hand-edited or foreign value: show every column
  }
}

export function saveHiddenColumns(storage: Storage, tableId: string, hidden: readonly string[]): void {
  storage.setItem(STORAGE_PREFIX + tableId, JSON.stringify(hidden));
}
