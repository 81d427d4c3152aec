import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';

import { useElementWidth } from '@/lib/useElementWidth';

import type { FabricTopology } from '../api/types';
import { chooseRenderer, countLinkHealth, countLinkStates } from './linkState';
import { computeTierLayout, type PlacedSwitch } from './tierLayout';
import { TopologyCanvasLayer } from './TopologyCanvasLayer';
import { TopologyLegend } from './TopologyLegend';
import { describeSwitch, linkSegments, linksBySwitch, topologySummary } from './topologyModel';
import { TopologyOverlay } from './TopologyOverlay';
import { TopologySvgLayer } from './TopologySvgLayer';

interface TopologyViewProps {
  topology: FabricTopology;
  fabricId: number;
  fabricName: string;
}

export function TopologyView({ topology, fabricId, fabricName }: TopologyViewProps) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const navigate = useNavigate();
  const [hovered, setHovered] = useState<PlacedSwitch | null>(null);

  const layout = useMemo(
    () => computeTierLayout(topology.tiers, topology.switches, { width }),
    [topology.tiers, topology.switches, width],
  );
  const segments = useMemo(() => linkSegments(layout, topology.links), [layout, topology.links]);
  const adjacency = useMemo(() => linksBySwitch(topology.links), [topology.links]);
  const counts = useMemo(() => countLinkStates(topology.links), [topology.links]);
  const healthCounts = useMemo(() => countLinkHealth(topology.links), [topology.links]);
  const summary = useMemo(() => topologySummary(fabricName, topology), [fabricName, topology]);
  const renderer = chooseRenderer(topology.links.length);

  const hoveredTier = hovered ? (topology.tiers[hovered.tier] ?? `tier ${hovered.tier}`) : '';

  return (
    <div
      className="topology"
      data-testid="topology"
      data-renderer={renderer}
      data-link-count={topology.links.length}
      data-switch-count={topology.switches.length}
    >
      <TopologyLegend counts={counts} healthCounts={healthCounts} />
      <p className="topology-readout" aria-live="polite">
        {hovered
          ? describeSwitch(hovered, hoveredTier, adjacency.get(hovered.id) ?? [])
          : 'Point at a switch to see its links; click it to list them.'}
      </p>
      <div className="topology-stage" ref={ref} style={{ height: layout.height }}>
        {renderer === 'svg' ? (
          <TopologySvgLayer layout={layout} segments={segments} label={summary} />
        ) : (
          <TopologyCanvasLayer layout={layout} segments={segments} label={summary} />
        )}
        <TopologyOverlay
          layout={layout}
          adjacency={adjacency}
          hovered={hovered}
          onHover={setHovered}
          onSelect={(sw) => navigate(`/links?fabric=${fabricId}&switch=${sw.id}`)}
        />
      </div>
    </div>
  );
}
