import { memo } from 'react';

import { LINK_STATES, LINK_STATE_STYLE, type LinkState } from './linkState';
import type { TierLayout } from './tierLayout';
import type { LinkSegment } from './topologyModel';

interface TopologySvgLayerProps {
  layout: TierLayout;
  segments: Record<LinkState, LinkSegment[]>;
  label: string;
}

/** SVG drawing for fabrics small enough for one DOM node per link. Memoised: hover does not redraw it. */
export const TopologySvgLayer = memo(function TopologySvgLayer({ layout, segments, label }: TopologySvgLayerProps) {
  return (
    <svg
      className="topology-base"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      role="img"
      aria-label={label}
      data-testid="topology-svg"
    >
      {LINK_STATES.map((state) => {
        const style = LINK_STATE_STYLE[state];
        return (
          <g
            key={state}
            stroke={style.colour}
            strokeWidth={state === 'up' ? 1 : 1.75}
            strokeOpacity={state === 'up' ? 0.55 : 0.95}
            strokeDasharray={style.dashed ? '5 4' : undefined}
          >
            {segments[state].map((segment) => (
              <line
                key={segment.id}
                className="topology-link"
                data-state={state}
                x1={segment.x1}
                y1={segment.y1}
                x2={segment.x2}
                y2={segment.y2}
              />
            ))}
          </g>
        );
      })}
      {layout.rows.map((row) => (
        <g key={row.tier} className="topology-row" data-tier={row.name}>
          {[...layout.positions.values()]
            .filter((sw) => sw.tier === row.tier)
            .map((sw) => (
              <circle key={sw.id} className="topology-node" cx={sw.x} cy={sw.y} r={row.nodeRadius} />
            ))}
        </g>
      ))}
    </svg>
  );
});
