import { useId, useMemo, useState } from 'react';

import { useElementWidth } from '@/lib/useElementWidth';

import type { FabricTopology } from '../api/types';
import { chooseRenderer, countLinkHealth, countLinkStates } from './linkState';
import { computeTierLayout, type PlacedSwitch } from './tierLayout';
import { TopologyCanvasLayer } from './TopologyCanvasLayer';
import { TopologyLegend } from './TopologyLegend';
import { describeSwitch, linkSegments, linksBySwitch, topologySummary } from './topologyModel';
import { SwitchPanel } from './SwitchPanel';
import { TopologyOverlay } from './TopologyOverlay';
import { TopologySvgLayer } from './TopologySvgLayer';

interface TopologyViewProps {
  topology: FabricTopology;
  fabricId: number;
  fabricName: string;
}

export function TopologyView({ topology, fabricId, fabricName }: TopologyViewProps) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const [hovered, setHovered] = useState<PlacedSwitch | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const pickerId = useId();

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

  const tierName = (tier: number) => topology.tiers[tier] ?? `tier ${tier}`;
  const hoveredTier = hovered ? tierName(hovered.tier) : '';
  const selected = selectedId === null ? null : (layout.positions.get(selectedId) ?? null);
  const byName = useMemo(() => new Map([...layout.positions.values()].map((sw) => [sw.name, sw])), [layout.positions]);
  const openTyped = () => {
    const sw = byName.get(typed.trim());
    if (sw) setSelectedId(sw.id);
  };

  return (
    <div
      className="topology"
      data-testid="topology"
      data-renderer={renderer}
      data-link-count={topology.links.length}
      data-switch-count={topology.switches.length}
    >
      <TopologyLegend
        counts={counts}
        healthCounts={healthCounts}
        corruptingInService={topology.corrupting_in_service}
        corruptingInServiceHref={`/links?fabric=${fabricId}&corrupting_in_service=true`}
      />
      <p className="topology-readout" aria-live="polite">
        {hovered
          ? describeSwitch(hovered, hoveredTier, adjacency.get(hovered.id) ?? [])
          : 'Point at a switch to see its links; click it to open its panel.'}
      </p>
      <form
        className="switch-picker"
        aria-label="Open a switch"
        onSubmit={(event) => {
          event.preventDefault();
          openTyped();
        }}
      >
        <label htmlFor={pickerId}>Switch</label>
        <input
          id={pickerId}
          type="text"
          list={`${pickerId}-names`}
          autoComplete="off"
          placeholder="name, e.g. a spine"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <datalist id={`${pickerId}-names`}>
          {topology.switches.length <= 2000
            ? topology.switches.map((sw) => <option key={sw.id} value={sw.name} />)
            : null}
        </datalist>
        <button type="submit" disabled={!byName.has(typed.trim())}>
          Open
        </button>
      </form>
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
          selected={selected}
          onSelect={(sw) => setSelectedId(sw.id)}
        />
      </div>
      {selected ? (
        <SwitchPanel
          key={selected.id}
          sw={selected}
          tierName={tierName(selected.tier)}
          links={adjacency.get(selected.id) ?? []}
          fabricId={fabricId}
          onClose={() => setSelectedId(null)}
        />
      ) : null}
    </div>
  );
}
