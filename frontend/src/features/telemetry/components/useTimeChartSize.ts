import { useElementWidth } from '@/lib/useElementWidth';

/** Plot height for a chart this wide: shorter on a phone, so both charts fit a screen. */
function plotHeightFor(width: number): number {
  return width < 520 ? 180 : 240;
}

/**
 * The size of a time chart: its stage's measured width (or a fixed one: component tests have no
 * layout engine) and the plot height that goes with it. The chart builds its model at this size
 * and hands `stageRef` back to TimeChart, which measures the stage.
 */
export function useTimeChartSize(fixedWidth?: number) {
  const { ref, width: measuredWidth } = useElementWidth<HTMLDivElement>();
  const width = fixedWidth ?? measuredWidth;
  return { stageRef: ref, width, plotHeight: plotHeightFor(width) };
}
