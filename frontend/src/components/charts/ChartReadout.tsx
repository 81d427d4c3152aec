import { LineSwatch } from '@/components/LineSwatch';

import type { PlotArea } from './plotArea';
import type { Readout } from './readout';

/** The line above the chart: the time and each line's value, or how to get them. */
export function ChartReadoutText({ testId, readout }: { testId: string; readout: Readout | null }) {
  return (
    <p className="chart-readout" data-testid={testId} aria-live="polite">
      {readout ? (
        <>
          <strong>{readout.time}</strong>
          {readout.rows.map((row) => (
            <span key={row.key} className="chart-readout-row">
              <LineSwatch colour={row.colour} width={2.5} />
              {row.label}: {row.text}
            </span>
          ))}
        </>
      ) : (
        <span className="chart-readout-hint">Point at the chart, or focus it and use ← →, to read its values.</span>
      )}
    </p>
  );
}

/** The dashed vertical line at the readout's time, inside the chart's SVG. */
export function ChartReadoutLine({ testId, x, area }: { testId: string; x: number | null; area: PlotArea }) {
  if (x === null) return null;
  return <line className="readout-line" data-testid={testId} x1={x} x2={x} y1={area.top} y2={area.bottom} />;
}
