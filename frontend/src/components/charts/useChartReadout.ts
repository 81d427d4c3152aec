import { type KeyboardEvent, type PointerEvent, useMemo, useState } from 'react';

import type { PlotArea } from './plotArea';
import { readoutAt, type ReadoutSeries, readoutTimes } from './readout';

/** A line's reading counts at the readout's time when within this share of the time axis. */
const READOUT_TOLERANCE = 0.02;

/** The part of a D3 time scale the readout uses: pixels to time and back. */
interface TimeScale {
  (date: Date): number;
  invert(pixel: number): Date;
  domain(): Date[];
}

/**
 * The hover readout of a chart over time, shared by every such chart: pointing at the plot (or
 * focusing it and pressing ← →) reads each line's value at that time; Escape, leaving or blurring
 * clears it. Spread `svgProps` on the chart's SVG and draw ChartReadout.tsx's text and line.
 */
export function useChartReadout(
  series: readonly ReadoutSeries[],
  x: TimeScale,
  area: PlotArea,
  formatReadoutTime?: (t: number) => string,
) {
  const [readoutTime, setReadoutTime] = useState<number | null>(null);
  const stops = useMemo(() => readoutTimes(series), [series]);
  const [start, end] = x.domain().map((date) => date.getTime());
  const readout =
    readoutTime === null
      ? null
      : readoutAt(series, readoutTime, ((end ?? 0) - (start ?? 0)) * READOUT_TOLERANCE, formatReadoutTime);
  const readoutX = readout ? x(new Date(readout.t)) : null;
  const hasReadout = series.length > 0 && stops.length > 0;

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const px = event.clientX - event.currentTarget.getBoundingClientRect().left;
    setReadoutTime(px < area.left || px > area.right ? null : x.invert(px).getTime());
  };
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (event.key === 'Escape') return setReadoutTime(null);
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const at = readout?.t ?? null;
    const next =
      event.key === 'ArrowRight'
        ? (stops.find((t) => at === null || t > at) ?? stops.at(-1))
        : ([...stops].reverse().find((t) => at === null || t < at) ?? stops[0]);
    if (next !== undefined) setReadoutTime(next);
  };
  const svgProps = hasReadout
    ? {
        tabIndex: 0,
        onPointerMove,
        onPointerLeave: () => setReadoutTime(null),
        onKeyDown,
        onBlur: () => setReadoutTime(null),
      }
    : {};
  return { readout, readoutX, hasReadout, svgProps };
}
