import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { useFabricChoices } from '@/features/fabrics';
import { pageOffset, parsePageParam } from '@/lib/pagination';

import type { LinkFilters } from '../api/types';
import { useLinks } from '../api/useLinks';
import { LinkFiltersForm } from '../components/LinkFiltersForm';
import { LinksTable } from '../components/LinksTable';
import { filtersFromSearchParams, searchParamsFromFilters } from '../linkFilters';

const PAGE_SIZE = 50;

export function LinksPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(searchParams), [searchParams]);
  const page = parsePageParam(searchParams.get('page'));
  const links = useLinks(filters, { limit: PAGE_SIZE, offset: pageOffset(page, PAGE_SIZE) });
  const fabricChoices = useFabricChoices();
  const fabrics = useMemo(() => fabricChoices.data?.results ?? [], [fabricChoices.data]);
  const fabricNames = useMemo(() => new Map(fabrics.map((fabric) => [fabric.id, fabric.name])), [fabrics]);

  // Changing a filter starts again at page 1.
  const applyFilters = (next: LinkFilters) => setSearchParams(searchParamsFromFilters(next));

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
      <LinkFiltersForm filters={filters} fabrics={fabrics} onChange={applyFilters} />
      {filters.switch ? (
        <p className="active-filter">
          Only links of switch {switchName ?? `#${filters.switch}`}{' '}
          <button type="button" className="link-button" onClick={() => applyFilters({ ...filters, switch: undefined })}>
            Show all switches
          </button>
        </p>
      ) : null}
      {links.isPending ? <Loading label="Loading links…" /> : null}
      <ErrorList error={links.error} title="Could not load links." />
      {links.data ? (
        links.data.count === 0 ? (
          <p data-testid="links-empty">No links match these filters.</p>
        ) : (
          <>
            <LinksTable links={links.data.results} fabricNames={fabricNames} />
            <Pagination
              label="Links pages"
              total={links.data.count}
              page={page}
              pageSize={PAGE_SIZE}
              shown={links.data.results.length}
              onPageChange={(next) => setSearchParams(searchParamsFromFilters(filters, next))}
            />
          </>
        )
      ) : null}
    </section>
  );
}
