import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { canChangeLinkState, useCurrentUser } from '@/features/auth';
import { FabricAtRiskCount } from '@/features/forecasts';

import { useFabric } from '../api/useFabric';
import { useFabricCapacity } from '../api/useFabricCapacity';
import { useFabricTopology } from '../api/useFabricTopology';
import { CapacityBars } from '../components/CapacityBars';
import { FabricFacts } from '../components/FabricFacts';
import { ForecastSettingsPanel } from '../components/ForecastSettingsPanel';
import { FabricRecovery } from '../components/RecoveryPanel';
import { TopologyView } from '../components/TopologyView';

export function FabricDetailPage() {
  const { fabricId: rawId } = useParams();
  const fabricId = Number(rawId);
  if (!Number.isInteger(fabricId) || fabricId <= 0) {
    return (
      <section>
        <h1>Fabric not found</h1>
        <p>
          “{rawId}” is not a fabric id. <Link to="/fabrics">Back to fabrics</Link>
        </p>
      </section>
    );
  }
  return <FabricDetail fabricId={fabricId} />;
}

function FabricDetail({ fabricId }: { fabricId: number }) {
  const fabric = useFabric(fabricId);
  const topology = useFabricTopology(fabricId);
  const capacity = useFabricCapacity(fabricId);
  const user = useCurrentUser();
  const name = fabric.data?.name ?? `fabric ${fabricId}`;

  return (
    <article aria-labelledby="fabric-heading">
      <p className="breadcrumb">
        <Link to="/fabrics">Fabrics</Link> / {name}
      </p>
      <h1 id="fabric-heading">{name}</h1>
      {fabric.isPending ? <Loading label="Loading fabric…" /> : null}
      <ErrorList error={fabric.error} title="Could not load the fabric." />
      {fabric.data ? (
        <>
          <FabricFacts fabric={fabric.data} />
          <p className="fabric-at-risk">
            Optics forecast: <FabricAtRiskCount fabricId={fabricId} horizonDays={fabric.data.forecast_horizon_days} />
          </p>
        </>
      ) : null}

      <section className="panel" aria-labelledby="topology-heading">
        <h2 id="topology-heading">Topology</h2>
        {topology.isPending ? <Loading label="Loading topology…" /> : null}
        <ErrorList error={topology.error} title="Could not load the topology." />
        {topology.data ? <TopologyView topology={topology.data} fabricId={fabricId} fabricName={name} /> : null}
      </section>

      <section className="panel" aria-labelledby="capacity-heading">
        <h2 id="capacity-heading">Capacity per ToR</h2>
        <p className="lede">
          Share of each ToR’s paths to the top tier that are up and enabled. A ToR below its constraint has lost too
          many uplinks for another link to be safely disabled.
        </p>
        {capacity.isPending ? <Loading label="Loading capacity…" /> : null}
        <ErrorList error={capacity.error} title="Could not load capacity." />
        {capacity.data ? <CapacityBars capacity={capacity.data} /> : null}
      </section>

      <FabricRecovery fabricId={fabricId} />

      {fabric.data ? <ForecastSettingsPanel fabric={fabric.data} canEdit={canChangeLinkState(user.data)} /> : null}
    </article>
  );
}
