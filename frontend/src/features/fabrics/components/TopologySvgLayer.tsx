import { memo } from 'react';

import { dashArray, isQuietLook, LINK_LOOKS, lookColour, lookWidth } from './linkState';
import type { TierLayout } from './tierLayout';
import type { LinkBuckets } from './topologyModel';

interface TopologySvgLayerProps {
  layout: TierLayout;
  segments: LinkBuckets;
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
      {LINK_LOOKS.map((look, index) => {
        const bucket = segments[index] ?? [];
        if (bucket.length === 0) return null;
        const quiet = isQuietLook(look);
        return (
          <g
            key={`${look.health}-${look.state}`}
            stroke={lookColour(look)}
            strokeWidth={lookWidth(look, 'svg')}
            strokeOpacity={quiet ? 0.55 : 0.95}
            strokeDasharray={dashArray(look.state)}
          >
            {bucket.map((segment) => (
              <line
                key={segment.id}
                className="topology-link"
                data-state={look.state}
                data-health={look.health}
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
              <circle
                key={sw.id}
                className="topology-node"
                data-switch={sw.name}
                cx={sw.x}
                cy={sw.y}
                r={row.nodeRadius}
              />
            ))}
        </g>
      ))}
    </svg>
  );
});
