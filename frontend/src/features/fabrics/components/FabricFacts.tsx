import { formatCount, formatTimeWithAge } from '@/lib/format';

import type { Fabric } from '../api/types';

export function FabricFacts({ fabric }: { fabric: Fabric }) {
  return (
    <>
      {fabric.description ? <p className="lede">{fabric.description}</p> : null}
      <dl className="facts" data-testid="fabric-facts">
        <div>
          <dt>Tiers (bottom up)</dt>
          <dd>{fabric.tiers.join(' → ')}</dd>
        </div>
        <div>
          <dt>Switches</dt>
          <dd>{formatCount(fabric.switch_count)}</dd>
        </div>
        <div>
          <dt>Links</dt>
          <dd>{formatCount(fabric.link_count)}</dd>
        </div>
        <div>
          <dt>Capacity constraint</dt>
          <dd>{fabric.capacity_constraint.toFixed(2)} of paths</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatTimeWithAge(fabric.updated)}</dd>
        </div>
      </dl>
    </>
  );
}
