import { useEffect, useMemo, useRef } from 'react';

import { LineSwatch } from '@/components/LineSwatch';
import { chooseRenderer, computeTierLayout, type FabricTopology, type TierLayout } from '@/features/fabrics';
import { formatCount } from '@/lib/format';
import { useElementWidth } from '@/lib/useElementWidth';

import type { ReliabilityClass } from '../api/types';
import {
  CLASS_LINK_ROLES,
  CLASS_LINK_STYLE,
  type ClassLinkRole,
  classLinkRoles,
  countRoles,
  formatLoss,
} from '../classData';

interface Segment {
  id: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

type RoleSegments = Record<ClassLinkRole, Segment[]>;

function roleSegments(layout: TierLayout, topology: FabricTopology, roles: Map<number, ClassLinkRole>): RoleSegments {
  const buckets: RoleSegments = { other: [], member: [], repair: [], worst: [] };
  for (const link of topology.links) {
    const a = layout.positions.get(link.a);
    const z = layout.positions.get(link.z);
    if (!a || !z) continue;
    buckets[roles.get(link.id) ?? 'other'].push({ id: link.id, x1: a.x, y1: a.y, x2: z.x, y2: z.y });
  }
  return buckets;
}

interface ClassFabricDrawingProps {
  topology: FabricTopology;
  cls: ReliabilityClass;
  repair: readonly { link: number }[];
}

/**
 * The fabric in tiers (the fabric page's layout) with one class's links coloured, the others grey,
 * links marked for repair dashed and the class's worst path drawn thick on top.
 */
export function ClassFabricDrawing({ topology, cls, repair }: ClassFabricDrawingProps) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const layout = useMemo(
    () => computeTierLayout(topology.tiers, topology.switches, { width }),
    [topology.tiers, topology.switches, width],
  );
  const roles = useMemo(() => classLinkRoles(topology.links, cls, repair), [topology.links, cls, repair]);
  const segments = useMemo(() => roleSegments(layout, topology, roles), [layout, topology, roles]);
  const counts = useMemo(() => countRoles(roles), [roles]);
  const renderer = chooseRenderer(topology.links.length);
  const summary =
    `Class ${cls.class} (worst path loss at most ${formatLoss(cls.bound)}) on the fabric: ` +
    `${formatCount(counts.member + counts.worst)} of ${formatCount(topology.links.length)} links in the class` +
    (cls.worst ? `, worst path ${cls.worst.switches.join(', ')} with loss ${formatLoss(cls.worst.loss)}` : '') +
    (counts.repair ? `, ${formatCount(counts.repair)} links marked for repair` : '');

  return (
    <div className="topology" data-testid="class-drawing" data-renderer={renderer}>
      <ul className="legend" aria-label="Class drawing legend">
        {CLASS_LINK_ROLES.map((role) => (
          <li key={role}>
            <LineSwatch
              colour={CLASS_LINK_STYLE[role].colour}
              width={CLASS_LINK_STYLE[role].width}
              dash={CLASS_LINK_STYLE[role].dash || undefined}
            />
            {CLASS_LINK_STYLE[role].label} <span className="legend-count">{formatCount(counts[role])}</span>
          </li>
        ))}
      </ul>
      <div className="topology-stage class-drawing" ref={ref} style={{ height: layout.height }}>
        {renderer === 'svg' ? (
          <svg
            width={layout.width}
            height={layout.height}
            role="img"
            aria-label={summary}
            data-testid="class-drawing-svg"
          >
            {CLASS_LINK_ROLES.map((role) => (
              <g
                key={role}
                stroke={CLASS_LINK_STYLE[role].colour}
                strokeWidth={CLASS_LINK_STYLE[role].width}
                strokeDasharray={CLASS_LINK_STYLE[role].dash || undefined}
              >
                {segments[role].map((segment) => (
                  <line
                    key={segment.id}
                    data-role={role}
                    x1={segment.x1}
                    y1={segment.y1}
                    x2={segment.x2}
                    y2={segment.y2}
                  />
                ))}
              </g>
            ))}
            {layout.rows.map((row) => (
              <g key={row.tier}>
                {[...layout.positions.values()]
                  .filter((sw) => sw.tier === row.tier)
                  .map((sw) => (
                    <circle key={sw.id} className="topology-node" cx={sw.x} cy={sw.y} r={row.nodeRadius}>
                      <title>{sw.name}</title>
                    </circle>
                  ))}
              </g>
            ))}
          </svg>
        ) : (
          <ClassCanvas layout={layout} segments={segments} label={summary} />
        )}
      </div>
    </div>
  );
}

/** Large fabrics: one stroke per role on a canvas instead of a DOM node per link. */
function ClassCanvas({ layout, segments, label }: { layout: TierLayout; segments: RoleSegments; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(layout.width * ratio);
    canvas.height = Math.round(layout.height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, layout.width, layout.height);
    for (const role of CLASS_LINK_ROLES) {
      const style = CLASS_LINK_STYLE[role];
      context.beginPath();
      for (const segment of segments[role]) {
        context.moveTo(segment.x1, segment.y1);
        context.lineTo(segment.x2, segment.y2);
      }
      context.strokeStyle = style.colour;
      // Thousands of grey links would hide the rest: thin and faint; the marked ones stay bold.
      context.globalAlpha = role === 'other' || role === 'member' ? 0.35 : 1;
      context.lineWidth = role === 'other' || role === 'member' ? 0.5 : style.width;
      context.setLineDash(style.dash ? style.dash.split(' ').map(Number) : []);
      context.stroke();
    }
    context.setLineDash([]);
    context.globalAlpha = 1;
  }, [layout, segments]);
  return (
    <canvas
      ref={canvasRef}
      style={{ width: layout.width, height: layout.height }}
      role="img"
      aria-label={label}
      data-testid="class-drawing-canvas"
    />
  );
}
