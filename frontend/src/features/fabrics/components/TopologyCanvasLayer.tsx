import { useEffect, useRef } from 'react';

import type { TierLayout } from './tierLayout';
import { drawTopology } from './topologyCanvas';
import type { LinkBuckets } from './topologyModel';

interface TopologyCanvasLayerProps {
  layout: TierLayout;
  segments: LinkBuckets;
  label: string;
}

export function TopologyCanvasLayer({ layout, segments, label }: TopologyCanvasLayerProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const pixelRatio = window.devicePixelRatio || 1;
    canvas.width = Math.round(layout.width * pixelRatio);
    canvas.height = Math.round(layout.height * pixelRatio);
    drawTopology(context, layout, segments, pixelRatio);
  }, [layout, segments]);

  return (
    <canvas
      ref={canvasRef}
      className="topology-base"
      style={{ width: layout.width, height: layout.height }}
      role="img"
      aria-label={label}
      data-testid="topology-canvas"
    />
  );
}
