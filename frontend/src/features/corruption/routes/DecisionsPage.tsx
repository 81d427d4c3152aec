import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { FabricSelect } from '@/components/FabricSelect';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { csvExportHref, TableToolbar, useTableState } from '@/components/table';
import { useFabricChoices } from '@/features/fabrics';
import { pageOffset } from '@/lib/pagination';

import type { DecisionAction, DecisionFilters, DecisionKind } from '../api/types';
import { DECISIONS_DEFAULT_ORDERING, useDecisions } from '../api/useDecisions';
import { DECISION_COLUMN_KEYS, DECISION_COLUMNS, DECISION_SORT_FIELDS } from '../components/decisionColumns';
import { DecisionsTable } from '../components/DecisionsTable';
import {
  DECISION_ACTIONS,
  DECISION_KINDS,
  decisionFiltersFromSearchParams,
  searchParamsFromDecisionFilters,
} from '../decisionLog';
import '../corruption.css';

export function DecisionsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => decisionFiltersFromSearchParams(searchParams), [searchParams]);
  const table = useTableState('decisions', DECISION_COLUMN_KEYS, DECISION_SORT_FIELDS);
  const { page, pageSize, ordering } = table;
  const decisions = useDecisions(filters, {
    limit: pageSize,
    offset: pageOffset(page, pageSize),
    ordering: table.orderingQuery,
  });
  const fabricChoices = useFabricChoices();
  const fabrics = useMemo(() => fabricChoices.data?.results ?? [], [fabricChoices.data]);
  const fabricNames = useMemo(() => new Map(fabrics.map((fabric) => [fabric.id, fabric.name])), [fabrics]);
  // A new filter starts again at page 1, keeping the ordering and the page size.
  const apply = (next: DecisionFilters) =>
    setSearchParams((current) => {
      const params = searchParamsFromDecisionFilters(next);
      for (const key of ['ordering', 'page_size']) {
        const value = current.get(key);
        if (value) params.set(key, value);
      }
      return params;
    });

  return (
    <section aria-labelledby="decisions-heading">
      <h1 id="decisions-heading">Decisions</h1>
      <p className="lede">
        Every CorrOpt decision on a corrupting link: the fast checker when corruption is detected, the optimizer after a
        repair or a constraint change. A link is disabled only when every ToR below it keeps its capacity constraint;
        otherwise it is kept in service and the ToR that blocked it is named.
      </p>
      <form className="filters" aria-label="Decision filters" onSubmit={(event) => event.preventDefault()}>
        <FabricSelect
          fabrics={fabrics}
          emptyOption="All fabrics"
          value={filters.fabric}
          onChange={(fabric) => apply({ ...filters, fabric: fabric ? Number(fabric) : undefined })}
        />
        <label>
          Made by
          <select
            value={filters.kind ?? ''}
            onChange={(event) =>
              apply({ ...filters, kind: (event.target.value || undefined) as DecisionKind | undefined })
            }
          >
            <option value="">Either</option>
            {DECISION_KINDS.map((kind) => (
              <option key={kind.value} value={kind.value}>
                {kind.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <select
            value={filters.action ?? ''}
            onChange={(event) =>
              apply({ ...filters, action: (event.target.value || undefined) as DecisionAction | undefined })
            }
          >
            <option value="">Any</option>
            {DECISION_ACTIONS.map((action) => (
              <option key={action.value} value={action.value}>
                {action.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="filter-group">
          <legend>Now</legend>
          <label className="check">
            <input
              type="checkbox"
              checked={filters.kept_for_capacity ?? false}
              onChange={(event) => apply({ ...filters, kept_for_capacity: event.target.checked ? true : undefined })}
            />
            Only links kept for capacity and still corrupting
          </label>
        </fieldset>
      </form>
      {filters.link !== undefined ? (
        <p className="active-filter">
          Only the decisions on link{' '}
          <Link to={`/links/${filters.link}`}>{decisions.data?.results[0]?.link_name ?? `#${filters.link}`}</Link>{' '}
          <button type="button" className="link-button" onClick={() => apply({ ...filters, link: undefined })}>
            Show all links
          </button>
        </p>
      ) : null}
      <TableToolbar
        columns={DECISION_COLUMNS}
        table={table}
        csvHref={csvExportHref('/api/decisions/', { ordering: DECISIONS_DEFAULT_ORDERING, ...filters }, ordering)}
      />
      {decisions.isPending ? <Loading label="Loading decisions…" /> : null}
      <ErrorList error={decisions.error} title="Could not load decisions." />
      {decisions.data ? (
        decisions.data.count === 0 ? (
          <p data-testid="decisions-empty">No decisions match these filters.</p>
        ) : (
          <>
            <DecisionsTable
              decisions={decisions.data.results}
              fabricNames={fabricNames}
              table={table}
              busy={decisions.isPlaceholderData}
            />
            <Pagination
              label="Decision pages"
              total={decisions.data.count}
              page={page}
              pageSize={pageSize}
              shown={decisions.data.results.length}
              onPageChange={table.setPage}
            />
          </>
        )
      ) : null}
    </section>
  );
}
