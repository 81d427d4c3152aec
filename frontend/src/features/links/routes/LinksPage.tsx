import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { FoldingFilters } from '@/components/FoldingFilters';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { csvExportHref, TableToolbar, useTableState } from '@/components/table';
import { useFabricChoices } from '@/features/fabrics';
import { pageOffset } from '@/lib/pagination';

import type { LinkFilters } from '../api/types';
import { useLinks } from '../api/useLinks';
import { LinkFiltersForm } from '../components/LinkFiltersForm';
import { LINK_COLUMN_KEYS, LINK_SORT_FIELDS, linkColumns } from '../components/linkColumns';
import { LinksTable } from '../components/LinksTable';
import { activeFilterCount, filtersFromSearchParams, searchParamsFromFilters } from '../linkFilters';

export function LinksPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(searchParams), [searchParams]);
  const table = useTableState('links', LINK_COLUMN_KEYS, LINK_SORT_FIELDS);
  const { page, pageSize, ordering } = table;
  const links = useLinks(filters, {
    limit: pageSize,
    offset: pageOffset(page, pageSize),
    ordering: table.orderingQuery,
  });
  const fabricChoices = useFabricChoices();
  const fabrics = useMemo(() => fabricChoices.data?.results ?? [], [fabricChoices.data]);
  const fabricNames = useMemo(() => new Map(fabrics.map((fabric) => [fabric.id, fabric.name])), [fabrics]);
  const columns = useMemo(() => linkColumns(fabricNames), [fabricNames]);

  // Changing a filter starts again at page 1, keeping the ordering and the page size.
  const applyFilters = (next: LinkFilters) =>
    setSearchParams((current) => {
      const params = searchParamsFromFilters(next);
      for (const key of ['ordering', 'page_size']) {
        const value = current.get(key);
        if (value) params.set(key, value);
      }
      return params;
    });

  const firstRow = links.data?.results[0];
  const switchName =
    filters.switch && firstRow
      ? firstRow.a_switch === filters.switch
        ? firstRow.a_switch_name
        : firstRow.z_switch_name
      : undefined;

  return (
    <section aria-labelledby="links-heading">
      <h1 id="links-heading">Links</h1>
      <p className="lede">Optical links between adjacent tiers. The A end is always the lower tier.</p>
      {/* Phones: the filters fold behind one button, so the first link shows on the first screen. */}
      <FoldingFilters active={activeFilterCount(filters)}>
        <LinkFiltersForm filters={filters} fabrics={fabrics} onChange={applyFilters} />
      </FoldingFilters>
      {filters.switch ? (
        <p className="active-filter">
          Only links of switch {switchName ?? `#${filters.switch}`}{' '}
          <button type="button" className="link-button" onClick={() => applyFilters({ ...filters, switch: undefined })}>
            Show all switches
          </button>
        </p>
      ) : null}
      <TableToolbar columns={columns} table={table} csvHref={csvExportHref('/api/links/', { ...filters }, ordering)} />
      {links.isPending ? <Loading label="Loading links…" /> : null}
      <ErrorList error={links.error} title="Could not load links." />
      {links.data ? (
        links.data.count === 0 ? (
          <p data-testid="links-empty">No links match these filters.</p>
        ) : (
          <>
            <LinksTable
              links={links.data.results}
              fabricNames={fabricNames}
              table={table}
              busy={links.isPlaceholderData}
            />
            <Pagination
              label="Links pages"
              total={links.data.count}
              page={page}
              pageSize={pageSize}
              shown={links.data.results.length}
              onPageChange={table.setPage}
            />
          </>
        )
      ) : null}
    </section>
  );
}
