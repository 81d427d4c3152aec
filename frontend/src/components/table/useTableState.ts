import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

import { parsePageParam } from '@/lib/pagination';

import {
  loadHiddenColumns,
  type Ordering,
  orderingFromParams,
  orderingParam,
  type PageSize,
  pageSizeFromParams,
  saveHiddenColumns,
  withTableState,
} from './tableState';

export interface TableState {
  ordering: Ordering | undefined;
  /** The ordering as the API's `?ordering=` value (undefined: the server's default). */
  orderingQuery: string | undefined;
  page: number;
  pageSize: PageSize;
  hidden: readonly string[];
  setOrdering: (ordering: Ordering | undefined) => void;
  setPage: (page: number) => void;
  setPageSize: (pageSize: PageSize) => void;
  setColumnShown: (column: string, shown: boolean) => void;
}

/**
 * Ordering, page and page size from the URL; hidden columns from localStorage under `tableId`.
 * `columns` are every column's key, `sortable` the API's ordering fields the table offers.
 */
export function useTableState(tableId: string, columns: readonly string[], sortable: readonly string[]): TableState {
  const [searchParams, setSearchParams] = useSearchParams();
  const [hidden, setHidden] = useState(() => loadHiddenColumns(window.localStorage, tableId, columns));

  const ordering = useMemo(() => orderingFromParams(searchParams, sortable), [searchParams, sortable]);
  const change = useCallback(
    (next: Parameters<typeof withTableState>[1]) => setSearchParams((current) => withTableState(current, next)),
    [setSearchParams],
  );
  const setColumnShown = useCallback(
    (column: string, shown: boolean) =>
      setHidden((current) => {
        const next = shown ? current.filter((key) => key !== column) : [...current, column];
        saveHiddenColumns(window.localStorage, tableId, next);
        return next;
      }),
    [tableId],
  );

  return {
    ordering,
    orderingQuery: ordering && orderingParam(ordering),
    page: parsePageParam(searchParams.get('page')),
    pageSize: pageSizeFromParams(searchParams),
    hidden,
    setOrdering: (next) => change({ ordering: next ?? null }),
    setPage: (page) => change({ page }),
    setPageSize: (pageSize) => change({ pageSize }),
    setColumnShown,
  };
}
