import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { FabricSelect } from '@/components/FabricSelect';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { canChangeLinkState, useCurrentUser } from '@/features/auth';
import { useFabric, useFabricChoices } from '@/features/fabrics';
import { parsePageParam } from '@/lib/pagination';

import { useAtRiskForecasts } from '../api/useAtRiskForecasts';
import {
  atRiskQuery,
  DEFAULT_HORIZON_DAYS,
  effectiveHorizon,
  filtersFromSearchParams,
  PAGE_SIZE,
  pageWindow,
  searchParamsFromFilters,
} from '../atRisk';
import { AtRiskFiltersForm } from '../components/AtRiskFiltersForm';
import { AtRiskResults } from '../components/AtRiskResults';
import { AtRiskRowTicket } from '../components/AtRiskRowTicket';
import '../forecasts.css';

export function AtRiskPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(searchParams), [searchParams]);
  const page = parsePageParam(searchParams.get('page'));
  const fabricChoices = useFabricChoices();
  const fabrics = useMemo(() => fabricChoices.data?.results ?? [], [fabricChoices.data]);

  // Without a fabric in the URL, show the first one (most sites run one), as the other pages do.
  useEffect(() => {
    const first = fabrics[0];
    if (filters.fabric === undefined && first) {
      setSearchParams(searchParamsFromFilters({ ...filters, fabric: first.id }), { replace: true });
    }
  }, [filters, fabrics, setSearchParams]);

  const fabricId = filters.fabric;
  const fabric = useFabric(fabricId ?? 0, { enabled: fabricId !== undefined });
  const fabricHorizon = fabric.data?.forecast_horizon_days ?? DEFAULT_HORIZON_DAYS;
  const horizon = effectiveHorizon(filters, fabricHorizon);
  const query = fabricId !== undefined && fabric.data ? atRiskQuery(fabricId, filters, fabricHorizon) : null;
  // One request per page: the server filters, orders (soonest crossing first) and pages.
  const links = useAtRiskForecasts(query, pageWindow(page));
  const fabricName = fabrics.find((candidate) => candidate.id === fabricId)?.name;
  // POST /api/tickets/preventive/ is for operators and admins, the same roles that change link state.
  const mayOpenTickets = canChangeLinkState(useCurrentUser().data);

  return (
    <section aria-labelledby="at-risk-heading" className="at-risk-page">
      <h1 id="at-risk-heading">At risk{fabricName ? `: ${fabricName}` : ''}</h1>
      <p className="lede">
        Links whose optics are forecast to cross their lower power limit soon, from the trend of each lane’s Rx and Tx
        power: repair them before corruption starts.
      </p>
      <form className="filters" aria-label="Fabric" onSubmit={(event) => event.preventDefault()}>
        <FabricSelect
          fabrics={fabrics}
          emptyOption={fabricId === undefined ? 'Choose a fabric' : undefined}
          value={fabricId}
          onChange={(value) =>
            setSearchParams(
              searchParamsFromFilters({ causes: filters.causes, fabric: value ? Number(value) : undefined }),
            )
          }
        />
      </form>
      {fabricChoices.isPending ? <Loading label="Loading fabrics…" /> : null}
      <ErrorList error={fabricChoices.error} title="Could not load fabrics." />
      {fabricChoices.data && fabrics.length === 0 ? <p>No fabric yet: import one on the Fabrics page.</p> : null}
      {fabricId !== undefined ? (
        <>
          <AtRiskFiltersForm
            filters={filters}
            fabricHorizonDays={fabricHorizon}
            // The filters live in the URL: flushSync renders a ticked box at once, not after the
            // navigation's transition (a controlled checkbox otherwise shows unticked in between).
            onChange={(next) => setSearchParams(searchParamsFromFilters(next), { flushSync: true })}
          />
          <ErrorList error={fabric.error} title="Could not load the fabric." />
          {fabric.isPending || links.isPending ? <Loading label="Loading links at risk…" /> : null}
          <ErrorList error={links.error} title="Could not load the links at risk." />
          {links.data ? (
            <AtRiskResults
              total={links.data.count}
              rows={links.data.results}
              horizonDays={horizon}
              causes={filters.causes}
              now={new Date()}
              ticketControl={mayOpenTickets ? (linkId) => <AtRiskRowTicket linkId={linkId} /> : undefined}
              pagination={
                links.data.count > PAGE_SIZE ? (
                  <Pagination
                    label="Pages of links at risk"
                    total={links.data.count}
                    page={page}
                    pageSize={PAGE_SIZE}
                    shown={links.data.results.length}
                    onPageChange={(next) => setSearchParams(searchParamsFromFilters(filters, next))}
                  />
                ) : null
              }
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
