import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';
import { pageOffset, parsePageParam } from '@/lib/pagination';

import { useWorkOrders } from '../api/useWorkOrders';
import { WorkOrderFiltersForm } from '../components/WorkOrderFiltersForm';
import { WorkOrdersTable } from '../components/WorkOrdersTable';
import { mayPlan } from '../roles';
import { filtersFromSearchParams, locationText, searchParamsFromFilters, workOrderQuery } from '../workOrders';
import '../maintenance.css';

const PAGE_SIZE = 25;

export function WorkOrdersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(searchParams), [searchParams]);
  const page = parsePageParam(searchParams.get('page'));
  const query = useMemo(() => workOrderQuery(filters), [filters]);
  const orders = useWorkOrders(query, { limit: PAGE_SIZE, offset: pageOffset(page, PAGE_SIZE) });
  const rows = useMemo(() => orders.data?.results ?? [], [orders.data]);
  const locations = useMemo(() => new Map(rows.map((order) => [order.id, locationText(order.location)])), [rows]);
  const fabricChoices = useFabricChoices();
  const fabrics = useMemo(() => fabricChoices.data?.results ?? [], [fabricChoices.data]);
  const fabricNames = useMemo(() => new Map(fabrics.map((fabric) => [fabric.id, fabric.name])), [fabrics]);
  const planner = mayPlan(useCurrentUser().data);

  return (
    <section aria-labelledby="work-orders-heading" className="work-orders-page">
      <h1 id="work-orders-heading">Work orders</h1>
      <p className="lede">
        One visit per component: tickets whose repairs share links are done together, and starting one is checked
        against every ToR’s capacity first.
      </p>
      {planner ? (
        <p>
          <Link to={filters.fabric === undefined ? '/work-orders/plan' : `/work-orders/plan?fabric=${filters.fabric}`}>
            Plan the day
          </Link>
        </p>
      ) : null}
      <WorkOrderFiltersForm
        filters={filters}
        fabrics={fabrics}
        onChange={(next) => setSearchParams(searchParamsFromFilters(next))}
      />
      {orders.isPending ? <Loading label="Loading work orders…" /> : null}
      <ErrorList error={orders.error} title="Could not load work orders." />
      {orders.data ? (
        orders.data.count === 0 ? (
          <p data-testid="work-orders-empty">No work orders match these filters.</p>
        ) : (
          <>
            <WorkOrdersTable orders={rows} locations={locations} fabricNames={fabricNames} />
            <Pagination
              label="Work order pages"
              total={orders.data.count}
              page={page}
              pageSize={PAGE_SIZE}
              shown={rows.length}
              onPageChange={(next) => setSearchParams(searchParamsFromFilters(filters, next))}
            />
          </>
        )
      ) : null}
    </section>
  );
}
