/** Geometry every SVG chart shares: the plot rectangle inside the svg, and axis ticks on it. */

export interface PlotArea {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A tick at `position` px on its axis, for the data value `value`. */
export interface AxisTick {
  value: number;
  position: number;
  label: string;
}

/** Room for the y labels and title on the left and the x labels and title below. */
const MARGIN = { left: 72, right: 16, top: 14, bottom: 44 };

/** The plot rectangle of a chart of this size, with the standard margins (at least 10 px each way). */
export function plotArea(width: number, height: number): PlotArea {
  return {
    left: MARGIN.left,
    right: Math.max(MARGIN.left + 10, width - MARGIN.right),
    top: MARGIN.top,
    bottom: Math.max(MARGIN.top + 10, height - MARGIN.bottom),
    width,
    height,
  };
}
