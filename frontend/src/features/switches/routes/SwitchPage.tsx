import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { formatCount, formatPercent } from '@/lib/format';

import type { SwitchOverview } from '../api/types';
import { useSwitchOverview } from '../api/useSwitchOverview';
import { LinkRowsTable } from '../components/LinkRowsTable';
import { OpenTicketsTable } from '../components/OpenTicketsTable';
import { RackName } from '../components/SwitchName';

export function SwitchPage() {
  const { switchId: rawId } = useParams();
  const switchId = Number(rawId);
  if (!Number.isInteger(switchId) || switchId <= 0) {
    return (
      <section>
        <h1>Switch not found</h1>
        <p>
          “{rawId}” is not a switch id. <Link to="/fabrics">Back to fabrics</Link>
        </p>
      </section>
    );
  }
  return <SwitchDetail switchId={switchId} />;
}

/** Drained is what the drain action does: links disabled for maintenance (fabric/services/overview.py). */
function drainWords(data: SwitchOverview): string {
  const total = data.links.length;
  if (data.drained) {
    return `Drained: ${formatCount(data.maintenance_links)} of ${formatCount(total)} links down for maintenance`;
  }
  return `Not drained: ${formatCount(data.usable_links)} of ${formatCount(total)} links in service`;
}

function CapacityFacts({ capacity }: { capacity: NonNullable<SwitchOverview['capacity']> }) {
  return (
    <section className="panel" aria-labelledby="capacity-heading" data-testid="switch-capacity">
      <h2 id="capacity-heading">Capacity</h2>
      <p>
        {formatCount(capacity.available_paths)} of {formatCount(capacity.total_paths)} up-paths to the top tier (
        {formatPercent(capacity.fraction)}); its constraint ({formatPercent(capacity.constraint, 0)}) needs{' '}
        {formatCount(capacity.required_paths)}.{' '}
        {capacity.below_constraint ? (
          <strong>Below its constraint.</strong>
        ) : (
          <span>
            It can lose {formatCount(capacity.headroom_paths)} more path{capacity.headroom_paths === 1 ? '' : 's'}.
          </span>
        )}
      </p>
    </section>
  );
}

function SwitchDetail({ switchId }: { switchId: number }) {
  const overview = useSwitchOverview(switchId);
  const data = overview.data;
  return (
    <article aria-labelledby="switch-heading" className="switch-page">
      <p className="breadcrumb">
        <Link to="/fabrics">Fabrics</Link>
        {data ? (
          <>
            {' / '}
            <Link to={`/fabrics/${data.fabric}`}>{data.fabric_name}</Link>
          </>
        ) : null}
      </p>
      <h1 id="switch-heading">{data ? data.name : `Switch ${switchId}`}</h1>
      {overview.isPending ? <Loading label="Loading switch…" /> : null}
      <ErrorList error={overview.error} title="Could not load the switch." />
      {data ? (
        <>
          <dl className="facts" data-testid="switch-facts">
            <div>
              <dt>Tier</dt>
              <dd>{data.tier_name}</dd>
            </div>
            <div>
              <dt>Rack</dt>
              <dd>
                <RackName fabricId={data.fabric} rack={data.rack} />
              </dd>
            </div>
            {data.pod !== null ? (
              <div>
                <dt>Pod</dt>
                <dd>{data.pod}</dd>
              </div>
            ) : null}
            {data.plane !== null ? (
              <div>
                <dt>Plane</dt>
                <dd>{data.plane}</dd>
              </div>
            ) : null}
            {data.vendor || data.model ? (
              <div>
                <dt>Hardware</dt>
                <dd>{[data.vendor, data.model].filter(Boolean).join(' ')}</dd>
              </div>
            ) : null}
            <div>
              <dt>Drain</dt>
              <dd data-testid="drain-state">{drainWords(data)}</dd>
            </div>
          </dl>
          {data.capacity ? <CapacityFacts capacity={data.capacity} /> : null}
          <section className="panel" aria-labelledby="links-heading">
            <h2 id="links-heading">Links ({formatCount(data.links.length)})</h2>
            <p>
              <Link to={`/links?fabric=${data.fabric}&switch=${data.id}`}>Links of this switch in the links list</Link>
            </p>
            <LinkRowsTable links={data.links} fabricId={data.fabric} caption={`Links of ${data.name}`} />
          </section>
          <section className="panel" aria-labelledby="tickets-heading">
            <h2 id="tickets-heading">Open tickets ({formatCount(data.open_tickets.length)})</h2>
            <OpenTicketsTable tickets={data.open_tickets} />
          </section>
        </>
      ) : null}
    </article>
  );
}
