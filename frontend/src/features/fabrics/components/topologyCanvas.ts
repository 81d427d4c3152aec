import { LINK_STATES, LINK_STATE_STYLE, type LinkState } from './linkState';
import type { TierLayout } from './tierLayout';
import type { LinkSegment } from './topologyModel';

/**
 * Paints a large topology on a 2D canvas: one path per link state, so 100K links
 * cost three stroke() calls instead of 100K DOM nodes.
 */
export function drawTopology(
  context: CanvasRenderingContext2D,
  layout: TierLayout,
  segments: Record<LinkState, LinkSegment[]>,
  pixelRatio: number,
): void {
  context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  context.clearRect(0, 0, layout.width, layout.height);

  const total = LINK_STATES.reduce((sum, state) => sum + segments[state].length, 0);
  // Dense healthy links fade into a texture; faults stay opaque so they stand out.
  const upAlpha = Math.max(0.08, Math.min(0.6, 600 / Math.max(total, 1)));

  for (const state of LINK_STATES) {
    const bucket = segments[state];
    if (bucket.length === 0) continue;
    const style = LINK_STATE_STYLE[state];
    context.beginPath();
    for (const segment of bucket) {
      context.moveTo(segment.x1, segment.y1);
      context.lineTo(segment.x2, segment.y2);
    }
    context.strokeStyle = style.colour;
    context.globalAlpha = state === 'up' ? upAlpha : 0.95;
    context.lineWidth = state === 'up' ? 0.5 : 1.25;
    context.setLineDash(style.dashed ? [4, 3] : []);
    context.stroke();
  }
  context.setLineDash([]);
  context.globalAlpha = 1;

  context.fillStyle = '#24313f';
  for (const row of layout.rows) {
    const size = Math.max(1, row.nodeRadius * 2);
    context.beginPath();
    for (const sw of layout.positions.values()) {
      if (sw.tier !== row.tier) continue;
      // Squares are much cheaper than arcs when a row holds thousands of switches.
      context.rect(sw.x - size / 2, sw.y - size / 2, size, size);
    }
    context.fill();
  }
}
