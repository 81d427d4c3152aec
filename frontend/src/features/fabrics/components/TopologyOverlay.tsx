import { quadtree } from 'd3';
import { useMemo, type MouseEvent } from 'react';

import { formatCount } from '@/lib/format';
import { labelStride } from '@/lib/labelStride';

import type { TopologyLink } from '../api/types';
import { dashArray, linkHealth, linkState, lookColour } from './linkState';
import type { LayoutGroup, PlacedSwitch, TierLayout } from './tierLayout';

const HOVER_RADIUS_PX = 14;

interface TopologyOverlayProps {
  layout: TierLayout;
  adjacency: Map<number, TopologyLink[]>;
  hovered: PlacedSwitch | null;
  /** The switch whose panel is open: ringed. */
  selected?: PlacedSwitch | null;
  onHover: (sw: PlacedSwitch | null) => void;
  onSelect: (sw: PlacedSwitch) => void;
}

/**
 * Labels and interaction drawn over either renderer, so SVG and canvas behave
 * the same: tier and group labels, and the hovered switch with its links.
 */
export function TopologyOverlay({ layout, adjacency, hovered, selected, onHover, onSelect }: TopologyOverlayProps) {
  const finder = useMemo(
    () =>
      quadtree<PlacedSwitch>()
        .x((sw) => sw.x)
        .y((sw) => sw.y)
        .addAll([...layout.positions.values()]),
    [layout],
  );

  const switchAt = (event: MouseEvent<SVGSVGElement>) => {
    const bounds = event.currentTarget.getBoundingClientRect();
    return finder.find(event.clientX - bounds.left, event.clientY - bounds.top, HOVER_RADIUS_PX) ?? null;
  };

  const topRow = layout.rows[0];
  const bottomRow = layout.rows[layout.rows.length - 1];
  const hoveredLinks = hovered ? (adjacency.get(hovered.id) ?? []) : [];
  const hoveredRadius = hovered ? (layout.rows.find((row) => row.tier === hovered.tier)?.nodeRadius ?? 4) : 0;

  return (
    <svg
      className={`topology-overlay${hovered ? ' is-hovering' : ''}`}
      width={layout.width}
      height={layout.height}
      aria-hidden="true"
      onPointerMove={(event) => {
        const sw = switchAt(event);
        if (sw?.id !== hovered?.id) onHover(sw);
      }}
      onPointerLeave={() => onHover(null)}
      onClick={(event) => {
        const sw = switchAt(event);
        if (sw) onSelect(sw);
      }}
    >
      {layout.rows.map((row) => (
        <text key={row.tier} className="tier-label" x={8} y={row.y} dominantBaseline="middle">
          <tspan x={8} dy="-0.5em">
            {row.name}
          </tspan>
          <tspan x={8} dy="1.2em" className="tier-count">
            {formatCount(row.switchCount)} sw
          </tspan>
        </text>
      ))}
      {[topRow, bottomRow].map((row, index) =>
        row && (index === 0 || row !== topRow)
          ? labelledGroups(row.groups).map((group) => (
              <text
                key={`${row.tier}-${group.key}`}
                className="group-label"
                x={(group.x0 + group.x1) / 2}
                y={index === 0 ? row.y - row.nodeRadius - 10 : row.y + row.nodeRadius + 18}
                textAnchor="middle"
              >
                {group.label}
              </text>
            ))
          : null,
      )}
      {selected ? (
        <circle
          cx={selected.x}
          cy={selected.y}
          r={Math.max(6, (layout.rows.find((row) => row.tier === selected.tier)?.nodeRadius ?? 4) + 5)}
          className="selected-ring"
          data-testid="selected-switch"
        />
      ) : null}
      {hovered ? (
        <g className="topology-hover">
          {hoveredLinks.map((link) => {
            const a = layout.positions.get(link.a);
            const z = layout.positions.get(link.z);
            if (!a || !z) return null;
            const look = { health: linkHealth(link), state: linkState(link) };
            return (
              <line
                key={link.id}
                x1={a.x}
                y1={a.y}
                x2={z.x}
                y2={z.y}
                stroke={lookColour(look)}
                strokeWidth={2.5}
                strokeDasharray={dashArray(look.state)}
              />
            );
          })}
          <circle cx={hovered.x} cy={hovered.y} r={Math.max(5, hoveredRadius + 3)} className="hover-ring" />
        </g>
      ) : null}
    </svg>
  );
}

/** Every group when labels fit, else every k-th so they do not overlap. */
function labelledGroups(groups: LayoutGroup[]): LayoutGroup[] {
  if (groups.length === 0) return groups;
  const narrowest = Math.min(...groups.map((group) => group.x1 - group.x0));
  const longest = Math.max(...groups.map((group) => group.label.length));
  const stride = labelStride(narrowest, longest);
  return groups.filter((_, index) => index % stride === 0);
}
