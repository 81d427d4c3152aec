import { brushX, type D3BrushEvent, pointer, select } from 'd3';
import { useEffect, useRef } from 'react';

/** Narrower drags are taken for clicks. */
const MIN_DRAG_PX = 4;

interface StepBrushProps {
  left: number;
  right: number;
  top: number;
  bottom: number;
  indexAtX: (px: number) => number;
  /** A click: the step under the pointer. */
  onSelect: (index: number) => void;
  /** A drag: the steps from the first to the last bar it covers. */
  onZoom: (first: number, last: number) => void;
}

/**
 * Over the uplink chart: click a step to select it, drag across steps to zoom to them. d3-brush
 * owns this one <g> (its overlay and selection), as in the telemetry charts' TimeBrush.
 */
export function StepBrush({ left, right, top, bottom, indexAtX, onSelect, onZoom }: StepBrushProps) {
  const ref = useRef<SVGGElement>(null);
  const handlers = useRef({ indexAtX, onSelect, onZoom });

  useEffect(() => {
    handlers.current = { indexAtX, onSelect, onZoom };
  }, [indexAtX, onSelect, onZoom]);

  useEffect(() => {
    const group = ref.current;
    if (!group) return;
    const brush = brushX<unknown>()
      .extent([
        [left, top],
        [right, bottom],
      ])
      .on('end', (event: D3BrushEvent<unknown>) => {
        // Clearing the selection below fires "end" again, without a user event behind it.
        if (!event.sourceEvent) return;
        const { indexAtX: at, onSelect: select_, onZoom: zoom } = handlers.current;
        if (!event.selection) {
          select_(at(pointer(event.sourceEvent, group)[0]));
          return;
        }
        const [x0, x1] = event.selection as [number, number];
        select(group).call(brush.move, null);
        if (x1 - x0 < MIN_DRAG_PX) select_(at((x0 + x1) / 2));
        else zoom(at(x0), at(x1));
      });
    const selection = select(group);
    selection.call(brush);
    return () => {
      selection.on('.brush', null);
      selection.selectAll('*').remove();
    };
  }, [left, right, top, bottom]);

  return <g ref={ref} className="step-brush" data-testid="step-brush" />;
}
