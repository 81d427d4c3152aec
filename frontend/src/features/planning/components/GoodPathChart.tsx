import { useMemo } from 'react';

import { formatCount } from '@/lib/format';

import type { PairFractions } from '../api/types';
import { formatPercent, goodPathDistribution } from '../planData';
import { LineChart } from './LineChart';
import { buildGoodPathChart } from './planCharts';

interface GoodPathChartProps {
  fractions: PairFractions;
  /** The bound every expected fraction keeps (the NRB); null for none. */
  bound: number | null;
  width: number;
  /** "expected good-path fraction" or "share of paths kept". */
  what: string;
  testId: string;
}

/** Per-ToR distribution (CDF) of a pair fraction, with the worst pair named and the quantiles over pairs. */
export function GoodPathChart({ fractions, bound, width, what, testId }: GoodPathChartProps) {
  const distribution = useMemo(() => goodPathDistribution(fractions), [fractions]);
  const chart = useMemo(
    () => buildGoodPathChart(distribution, { width, height: 260 }, bound),
    [distribution, width, bound],
  );
  const worst = fractions.worst_pair;
  return (
    <>
      <p data-testid={`${testId}-worst`}>
        {worst ? (
          <>
            Worst ToR pair: <strong>{worst.src_name}</strong> → <strong>{worst.dst_name}</strong>,{' '}
            {formatPercent(worst.fraction, 2)}.{' '}
          </>
        ) : (
          'No ToR pair has a path. '
        )}
        {fractions.mean !== null
          ? `Mean over ${formatCount(fractions.connected_pairs)} pairs: ${formatPercent(fractions.mean, 2)}`
          : ''}
        {fractions.quantiles.length > 0
          ? `; ${fractions.quantiles.map(([q, value]) => `${formatQuantile(q)} ${formatPercent(value, 2)}`).join(', ')}`
          : ''}
        {fractions.disconnected_pairs > 0
          ? `; ${formatCount(fractions.disconnected_pairs)} pairs without any path`
          : ''}
        .
      </p>
      {chart.boundOffChart !== null && distribution.lowest !== 1 ? (
        <p className="muted" data-testid={`${testId}-bound`}>
          Every ToR keeps more than the bound of {formatPercent(chart.boundOffChart, 2)}; the chart starts near the
          lowest ToR so that the lines stay apart.
        </p>
      ) : null}
      {distribution.lowest === 1 ? (
        <p className="muted" data-testid={`${testId}-all`}>
          Every ToR’s {what} is 100% for every destination.
        </p>
      ) : (
        <LineChart
          area={chart.area}
          xTicks={chart.xTicks}
          yTicks={chart.yTicks}
          xTitle={`Per-ToR ${what} (%)`}
          yTitle="ToRs at or below (%)"
          lines={chart.lines}
          marker={chart.bound}
          summary={`Distribution over ToRs of the ${what}: each ToR’s mean over its destinations and its worst destination`}
          testId={testId}
        />
      )}
    </>
  );
}

/** 0.0001 → "p0.01", 0.5 → "median". */
function formatQuantile(q: number): string {
  if (q === 0.5) return 'median';
  return `p${Number((q * 100).toPrecision(3))}`;
}
