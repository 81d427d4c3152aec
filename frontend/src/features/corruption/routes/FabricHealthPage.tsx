import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { FabricSelect } from '@/components/FabricSelect';
import { Loading } from '@/components/Loading';
import { canChangeLinkState, canEditConstraints, useCurrentUser } from '@/features/auth';
import { TopologyView, useFabricCapacity, useFabricChoices, useFabricTopology } from '@/features/fabrics';
import { LinksTable, useLinks } from '@/features/links';
import { useTicketMetrics } from '@/features/tickets';
import { formatTime } from '@/lib/format';

import { useConstraints } from '../api/useConstraints';
import { useDecisions } from '../api/useDecisions';
import { ConstraintEditor } from '../components/ConstraintEditor';
import { DecisionsTable } from '../components/DecisionsTable';
import { FabricHealthChart } from '../components/FabricHealthChart';
import { HealthMetrics } from '../components/HealthMetrics';
import { RepairHistory } from '../components/RepairHistory';
import { RunOptimizer } from '../components/RunOptimizer';
import { blockingTors } from '../decisionLog';
import { torLinkCounts } from '../healthChart';
import '../corruption.css';

const DISABLED_SHOWN = 50;
/** Kept-for-capacity links are few (each needs a ToR at its floor); one page holds them all. */
const KEPT_SHOWN = 500;
/** How often the page reads everything again while its tab is visible. */
export const HEALTH_REFRESH_MS = 30_000;

/** Every query on the page is read again each interval while the tab is visible (a hidden tab
 * waits and refreshes as soon as it is shown again); returns when the page last refreshed. */
function useRefreshWhileVisible(intervalMs: number): Date {
  const queryClient = useQueryClient();
  const [refreshedAt, setRefreshedAt] = useState(() => new Date());
  useEffect(() => {
    let last = Date.now();
    const refresh = () => {
      if (document.hidden || Date.now() - last < intervalMs) return;
      last = Date.now();
      void queryClient.invalidateQueries().then(() => setRefreshedAt(new Date()));
    };
    const timer = window.setInterval(refresh, 1_000);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [queryClient, intervalMs]);
  return refreshedAt;
}

export function FabricHealthPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const fabricChoices = useFabricChoices();
  const fabrics = useMemo(() => fabricChoices.data?.results ?? [], [fabricChoices.data]);
  const requested = Number(searchParams.get('fabric'));
  const fabricId = Number.isInteger(requested) && requested > 0 ? requested : undefined;

  // Without a fabric in the URL, show the first one (most sites run one).
  useEffect(() => {
    const first = fabrics[0];
    if (fabricId === undefined && first) setSearchParams({ fabric: String(first.id) }, { replace: true });
  }, [fabricId, fabrics, setSearchParams]);

  const fabricName = fabrics.find((fabric) => fabric.id === fabricId)?.name;

  return (
    <section aria-labelledby="health-heading" className="health-page">
      <h1 id="health-heading">Fabric health{fabricName ? `: ${fabricName}` : ''}</h1>
      <p className="lede">
        Links out of service and links corrupting in service, each ToR’s capacity against its constraint, and the ToRs
        that keep CorrOpt from disabling a corrupting link.
      </p>
      <form className="filters" aria-label="Fabric" onSubmit={(event) => event.preventDefault()}>
        <FabricSelect
          fabrics={fabrics}
          emptyOption={fabricId === undefined ? 'Choose a fabric' : undefined}
          value={fabricId}
          onChange={(fabric) => setSearchParams(fabric ? { fabric } : {})}
        />
      </form>
      {fabricChoices.isPending ? <Loading label="Loading fabrics…" /> : null}
      <ErrorList error={fabricChoices.error} title="Could not load fabrics." />
      {fabricChoices.data && fabrics.length === 0 ? <p>No fabric yet: import one on the Fabrics page.</p> : null}
      {fabricId !== undefined ? (
        <FabricHealth key={fabricId} fabricId={fabricId} fabricName={fabricName ?? `fabric ${fabricId}`} />
      ) : null}
    </section>
  );
}

function FabricHealth({ fabricId, fabricName }: { fabricId: number; fabricName: string }) {
  const user = useCurrentUser();
  const metrics = useTicketMetrics(fabricId);
  const capacity = useFabricCapacity(fabricId);
  const topology = useFabricTopology(fabricId);
  const kept = useDecisions({ fabric: fabricId, kept_for_capacity: true }, { limit: KEPT_SHOWN, offset: 0 });
  const disabled = useLinks({ fabric: fabricId, admin_state: 'disabled' }, { limit: DISABLED_SHOWN, offset: 0 });
  const constraints = useConstraints(fabricId);
  const refreshedAt = useRefreshWhileVisible(HEALTH_REFRESH_MS);

  const blocking = useMemo(() => blockingTors(kept.data?.results ?? []), [kept.data]);
  const counts = useMemo(() => (topology.data ? torLinkCounts(topology.data) : new Map()), [topology.data]);
  const torNames = useMemo(() => (capacity.data?.tors ?? []).map((tor) => tor.name), [capacity.data]);
  const fabricNames = useMemo(() => new Map([[fabricId, fabricName]]), [fabricId, fabricName]);

  return (
    <>
      <section className="panel" aria-labelledby="health-now-heading">
        <h2 id="health-now-heading">Now</h2>
        <p className="muted" data-testid="health-updated">
          Updated {formatTime(refreshedAt.toISOString())}; refreshes every {HEALTH_REFRESH_MS / 1000} s while shown.
        </p>
        {metrics.isPending ? <Loading label="Loading metrics…" /> : null}
        <ErrorList error={metrics.error} title="Could not load the metrics." />
        {metrics.data ? <HealthMetrics metrics={metrics.data} /> : null}
      </section>

      <section className="panel" aria-labelledby="health-history-heading">
        <h2 id="health-history-heading">Repairs over time</h2>
        <RepairHistory fabricId={fabricId} />
      </section>

      <section className="panel" aria-labelledby="health-capacity-heading">
        <h2 id="health-capacity-heading">Capacity per ToR</h2>
        <p className="lede">
          Share of each ToR’s paths to the top tier that are enabled and up. CorrOpt disables a corrupting link only if
          no ToR below it would fall under its constraint; an outlined ToR is at its floor and keeps a corrupting link
          in service.
        </p>
        {capacity.isPending || topology.isPending ? <Loading label="Loading capacity…" /> : null}
        <ErrorList error={capacity.error} title="Could not load capacity." />
        <ErrorList error={topology.error} title="Could not load the links." />
        <ErrorList error={kept.error} title="Could not load the decisions." />
        {capacity.data ? <FabricHealthChart capacity={capacity.data} blocking={blocking} counts={counts} /> : null}
      </section>

      <section className="panel" aria-labelledby="health-constraints-heading">
        <h2 id="health-constraints-heading">Capacity constraints</h2>
        {constraints.isPending ? <Loading label="Loading constraints…" /> : null}
        <ErrorList error={constraints.error} title="Could not load the constraints." />
        {constraints.data ? (
          <ConstraintEditor
            fabricId={fabricId}
            constraints={constraints.data}
            torNames={torNames}
            canEdit={canEditConstraints(user.data)}
          />
        ) : null}
      </section>
      <section className="panel" aria-labelledby="health-kept-heading">
        <h2 id="health-kept-heading">Corrupting, kept for capacity</h2>
        {canChangeLinkState(user.data) ? <RunOptimizer fabricId={fabricId} /> : null}
        {kept.isPending ? <Loading label="Loading the decisions…" /> : null}
        {kept.data ? (
          kept.data.count === 0 ? (
            <p data-testid="kept-empty">No corrupting link is kept in service for capacity.</p>
          ) : (
            <DecisionsTable decisions={kept.data.results} />
          )
        ) : null}
      </section>

      <section className="panel" aria-labelledby="health-disabled-heading">
        <h2 id="health-disabled-heading">Disabled links</h2>
        <ErrorList error={disabled.error} title="Could not load disabled links." />
        {disabled.data ? (
          disabled.data.count === 0 ? (
            <p data-testid="disabled-empty">Every link of this fabric is enabled.</p>
          ) : (
            <div data-testid="disabled-links">
              <LinksTable links={disabled.data.results} fabricNames={fabricNames} />
              {disabled.data.count > disabled.data.results.length ? (
                <p>
                  The first {disabled.data.results.length} of {disabled.data.count}.{' '}
                  <Link to={`/links?fabric=${fabricId}&admin_state=disabled`}>All disabled links</Link>
                </p>
              ) : null}
            </div>
          )
        ) : null}
      </section>

      <section className="panel" aria-labelledby="health-topology-heading">
        <h2 id="health-topology-heading">Topology</h2>
        {topology.data ? <TopologyView topology={topology.data} fabricId={fabricId} fabricName={fabricName} /> : null}
      </section>
    </>
  );
}
