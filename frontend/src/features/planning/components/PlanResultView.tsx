import { useMemo } from 'react';
import { Link } from 'react-router';

import { formatCount } from '@/lib/format';
import { useElementWidth } from '@/lib/useElementWidth';

import type { PlanSummary } from '../api/types';
import {
  formatPercent,
  formatUsd,
  planBars,
  planDownloads,
  stackBreakdowns,
  stretchLabel,
  sweepLines,
} from '../planData';
import { BandsTable } from './BandsTable';
import { BreakdownChart } from './BreakdownChart';
import { CostTable } from './CostTable';
import { GoodPathChart } from './GoodPathChart';
import { LineChart } from './LineChart';
import { LinkChoicesTable } from './LinkChoicesTable';
import { PlanComparison } from './PlanComparison';
import { buildBreakdownChart, buildSavingsChart } from './planCharts';

const CHART_HEIGHT = 320;

/** The longest link the costs assumed: the generator's maximum, or the longest stored link. */
function longestLink(result: PlanSummary): number | null {
  return result.inputs.generate ? result.inputs.generate.max_length_m : result.link_rows.longest_m;
}

export function PlanResultView({ jobId, result }: { jobId: number; result: PlanSummary }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const inputs = result.inputs;
  const stacked = useMemo(() => stackBreakdowns(planBars(result)), [result]);
  const breakdown = useMemo(
    () => buildBreakdownChart(stacked.bars, stacked.series, { width: Math.min(width, 720), height: CHART_HEIGHT }),
    [stacked, width],
  );
  const lines = useMemo(() => sweepLines(result.sweeps), [result.sweeps]);
  const savings = useMemo(
    () => buildSavingsChart(lines, { width, height: CHART_HEIGHT }, longestLink(result)),
    [lines, width, result],
  );
  const perLink = result.link_rows.count > 0;

  return (
    <div ref={ref} className="sim-result">
      <div className="plan-headline" data-testid="plan-headline">
        <div>
          <span className="muted">Saved</span>
          <strong data-testid="plan-savings">{formatPercent(result.savings)}</strong>
        </div>
        <div>
          <span className="muted">Baseline</span>
          <strong data-testid="plan-baseline-total">{formatUsd(result.baseline.total_usd)}</strong>
        </div>
        <div>
          <span className="muted">Plan</span>
          <strong data-testid="plan-total">{formatUsd(result.plan.total_usd)}</strong>
        </div>
        <div>
          <span className="muted">Stretched links</span>
          <strong>
            {Number.isInteger(result.stretched_links)
              ? formatCount(result.stretched_links)
              : result.stretched_links.toFixed(1)}{' '}
            of {formatCount(inputs.links)}
          </strong>
        </div>
      </div>
      <dl className="facts" data-testid="plan-facts">
        <div>
          <dt>Fabric</dt>
          <dd>
            {/* A stored fabric is named once, by its link; its description only repeats the name. */}
            {inputs.fabric ? (
              <Link to={`/fabrics/${inputs.fabric.id}`}>{inputs.fabric.name}</Link>
            ) : (
              inputs.description
            )}{' '}
            ({formatCount(inputs.links)} {inputs.fabric ? 'stored ' : ''}links, {formatCount(inputs.switches)} switches,{' '}
            {formatCount(inputs.tors)} ToRs)
          </dd>
        </div>
        <div>
          <dt>Stretch</dt>
          <dd>
            {stretchLabel(result.nrb)}
            {result.link_bound !== null
              ? `: a stretched link is good with probability ≥ ${formatPercent(result.link_bound, 3)} (NRB^(1/${result.max_hops}), ${result.max_hops} hops), so every path is good with probability ≥ ${formatPercent(result.path_bound, 2)}`
              : ''}
          </dd>
        </div>
        <div>
          <dt>Prices</dt>
          <dd>
            MMF ${inputs.costs.mmf_usd_per_m}/m, SMF ${inputs.costs.smf_usd_per_m}/m, port ${inputs.costs.port_usd},{' '}
            {inputs.costs.switch_watts} W per switch at ${inputs.costs.usd_per_kwh}/kWh over {inputs.costs.years} years;
            parts:{' '}
            {inputs.catalog
              .map(
                (part) =>
                  `${part.name} ${part.price_usd === null ? 'no price' : `$${part.price_usd}`}${part.price_source === 'demo' ? ' (demo price)' : ''}`,
              )
              .join(', ')}
          </dd>
        </div>
      </dl>
      <div className="sim-downloads" aria-label="Downloads">
        {planDownloads(jobId, perLink).map((link) => (
          <a key={link.href} href={link.href} download>
            {link.label}
          </a>
        ))}
      </div>

      <h2>Cost breakdown</h2>
      <BreakdownChart
        chart={breakdown}
        summary="Cost breakdown of baseline and plan by Table 4.1 item"
        testId="breakdown-chart"
      />
      <CostTable columns={planBars(result)} caption="Cost breakdown, baseline and plan" testId="plan-costs" />

      <h2>Savings against the longest link</h2>
      <p className="muted">
        Lengths uniform from 0 to the longest link, at this fabric’s link and switch counts (the seed’s Figure 4.13).
      </p>
      <LineChart
        area={savings.area}
        xTicks={savings.xTicks}
        yTicks={savings.yTicks}
        xTitle="Longest link (m)"
        yTitle="Saved (% of baseline)"
        lines={savings.lines}
        marker={savings.marker}
        summary="Savings against the maximum link length, without stretch and per stretch level"
        testId="savings-chart"
      />
      <ul className="legend-note" aria-label="Peak savings">
        {savings.lines
          .filter((line) => line.peak)
          .map((line) => (
            <li key={line.key}>{line.peak!.text}</li>
          ))}
      </ul>

      <h2>Good paths per ToR</h2>
      {result.good_paths ? (
        <GoodPathChart
          fractions={result.good_paths}
          bound={result.nrb === null ? null : result.path_bound}
          width={width}
          what="expected good-path fraction"
          testId="good-path-chart"
        />
      ) : (
        <p className="muted">Per-pair statistics were off for this plan (a fabric with more than 2,048 ToRs).</p>
      )}

      <h2>{perLink ? 'Per link' : 'By length'}</h2>
      {perLink ? (
        <LinkChoicesTable jobId={jobId} rows={result.link_rows} stored={inputs.source === 'stored'} />
      ) : (
        <BandsTable bands={result.bands} />
      )}

      <h2>Compare with another plan</h2>
      <PlanComparison jobId={jobId} result={result} width={width} />
    </div>
  );
}
