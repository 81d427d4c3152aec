import { useMemo, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { useElementWidth } from '@/lib/useElementWidth';

import type { Demand } from '../api/types';
import { useDemandMatrix } from '../api/useDemandMatrix';
import { buildHeatMap, type RackOrder } from '../heatMap';
import { formatBytes } from '../scheduleFormat';
import { DemandHeatMap } from './DemandHeatMap';
import { RackOrderSelect } from './RackOrderSelect';

/** Racks asked of the matrix endpoint for a preview (the server allows 400). */
const PREVIEW_RACKS = 64;

/** One window of an uploaded demand as a heat map, from GET /api/demands/{id}/matrix/. */
export function DemandPreview({ demand, circuitSwitch }: { demand: Demand; circuitSwitch?: number }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const [windowIndex, setWindowIndex] = useState(0);
  const [order, setOrder] = useState<RackOrder>('name');
  const matrix = useDemandMatrix(demand.id, { window: windowIndex, racks: PREVIEW_RACKS, circuitSwitch });
  const model = useMemo(() => {
    if (!matrix.data) return null;
    const entries = matrix.data.cells.map(([src, dst, bytes]) => ({ src, dst, bytes }));
    return buildHeatMap({ rackNames: matrix.data.racks.map((rack) => rack.name), entries, circuits: [], order });
  }, [matrix.data, order]);
  const data = matrix.data;

  return (
    <div ref={ref} className="panel" data-testid="demand-preview">
      <h3>{demand.name}: demand per window</h3>
      <form className="filters" aria-label="Demand window" onSubmit={(event) => event.preventDefault()}>
        <label className="slot-slider">
          Window {windowIndex + 1} of {demand.window_count}
          <input
            type="range"
            min={1}
            max={demand.window_count}
            value={windowIndex + 1}
            onChange={(event) => setWindowIndex(Number(event.target.value) - 1)}
            aria-label="Window"
          />
        </label>
        <RackOrderSelect value={order} onChange={setOrder} />
      </form>
      <ErrorList error={matrix.error} title="Could not load the demand matrix." />
      {matrix.isPending ? <Loading label="Loading the demand matrix…" /> : null}
      {model && data ? (
        <DemandHeatMap
          model={model}
          width={Math.min(width, 900)}
          caption={
            `window ${data.window + 1} from ${data.start_s} s: ${formatBytes(data.shown_bytes)} of ` +
            `${formatBytes(data.window_total_bytes)} shown` +
            (data.truncated ? `, the ${data.racks.length} busiest of ${data.racks_with_demand} racks with demand` : '')
          }
        />
      ) : null}
    </div>
  );
}
