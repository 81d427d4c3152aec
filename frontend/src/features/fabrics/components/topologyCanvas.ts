import { isQuietLook, LINK_LOOKS, LINK_STATE_STYLE, lookColour, lookWidth } from './linkState';
import type { TierLayout } from './tierLayout';
import type { LinkBuckets } from './topologyModel';

/**
 * Paints a large topology on a 2D canvas: one path per look (health colour × state pattern),
 * so 100K links cost at most twelve stroke() calls instead of 100K DOM nodes.
 */
export function drawTopology(
  context: CanvasRenderingContext2D,
  layout: TierLayout,
  buckets: LinkBuckets,
  pixelRatio: number,
): void {
  context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  context.clearRect(0, 0, layout.width, layout.height);

  const total = buckets.reduce((sum, bucket) => sum + bucket.length, 0);
  // Dense unremarkable links fade into a texture; everything else stays opaque so it stands out.
  const quietAlpha = Math.max(0.08, Math.min(0.6, 600 / Math.max(total, 1)));

  LINK_LOOKS.forEach((look, index) => {
    const bucket = buckets[index];
    if (!bucket || bucket.length === 0) return;
    const quiet = isQuietLook(look);
    context.beginPath();
    for (const segment of bucket) {
      context.moveTo(segment.x1, segment.y1);
      context.lineTo(segment.x2, segment.y2);
    }
    context.strokeStyle = lookColour(look);
    context.globalAlpha = quiet ? quietAlpha : 0.95;
    context.lineWidth = lookWidth(look, 'canvas');
    context.setLineDash([...LINK_STATE_STYLE[look.state].dash]);
    context.stroke();
  });
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
