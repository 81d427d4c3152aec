import { brushX, select, type D3BrushEvent, type ScaleTime } from 'd3';
import { useEffect, useRef } from 'react';

import type { PlotArea } from '@/components/charts/plotArea';

/** Narrower drags are taken for clicks: nothing to zoom into. */
const MIN_DRAG_PX = 4;

interface TimeBrushProps {
  x: ScaleTime<number, number>;
  area: PlotArea;
  onSelect: (start: Date, end: Date) => void;
}

/**
 * Drag across the plot to zoom into that interval. d3-brush draws and owns the contents of
 * this one <g> (its overlay and selection rectangles): the exception to React owning the DOM,
 * because the brush's pointer and touch handling is what we want from D3 here.
 */
export function TimeBrush({ x, area, onSelect }: TimeBrushProps) {
  const ref = useRef<SVGGElement>(null);
  const onSelectRef = useRef(onSelect);
  const xRef = useRef(x);

  // New data brings a new scale; the brush itself is kept, so a refetch never cuts a drag short.
  useEffect(() => {
    onSelectRef.current = onSelect;
    xRef.current = x;
  }, [onSelect, x]);

  useEffect(() => {
    const group = ref.current;
    if (!group) return;
    const brush = brushX<unknown>()
      .extent([
        [area.left, area.top],
        [area.right, area.bottom],
      ])
      .on('end', (event: D3BrushEvent<unknown>) => {
        // Clearing the selection below fires "end" again, without a user event behind it.
        if (!event.sourceEvent || !event.selection) return;
        const [x0, x1] = event.selection as [number, number];
        select(group).call(brush.move, null);
        if (x1 - x0 < MIN_DRAG_PX) return;
        onSelectRef.current(xRef.current.invert(x0), xRef.current.invert(x1));
      });
    const selection = select(group);
    selection.call(brush);
    return () => {
      selection.on('.brush', null);
      selection.selectAll('*').remove();
    };
  }, [area.left, area.right, area.top, area.bottom]);

  return <g ref={ref} className="time-brush" data-testid="time-brush" aria-hidden="true" />;
}
