import { useMemo, useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { formatTime } from '@/lib/format';

import { PLAN_KIND } from '../api/types';
import { usePlan } from '../api/usePlan';
import { useRailJobs } from '../api/useRailJobs';
import {
  comparisonFacts,
  formatPercent,
  planBars,
  planLabel,
  type PlanWithoutRows,
  stackBreakdowns,
} from '../planData';
import { BreakdownChart } from './BreakdownChart';
import { CostTable } from './CostTable';
import { buildBreakdownChart } from './planCharts';

/** Pick another succeeded plan; both plans' baseline and plan bars side by side, then their rows. */
export function PlanComparison({ jobId, result, width }: { jobId: number; result: PlanWithoutRows; width: number }) {
  const jobs = useRailJobs(PLAN_KIND, { limit: 100 });
  const [otherId, setOtherId] = useState<number | null>(null);
  const other = usePlan(otherId);
  const choices = (jobs.data?.results ?? []).filter((job) => job.id !== jobId && job.state === 'succeeded');

  return (
    <>
      <form className="filters" aria-label="Plan to compare" onSubmit={(event) => event.preventDefault()}>
        <label>
          Other plan
          <select
            value={otherId ?? ''}
            onChange={(event) => setOtherId(event.target.value ? Number(event.target.value) : null)}
          >
            <option value="">Choose…</option>
            {choices.map((job) => (
              <option key={job.id} value={job.id}>
                Plan #{job.id} ({job.created_by ?? 'unknown'}, {formatTime(job.created)})
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorList error={jobs.error} title="Could not load plans." />
      {choices.length === 0 && jobs.data ? <p className="muted">No other finished plan yet.</p> : null}
      {otherId !== null && other.isPending ? <Loading label="Loading the other plan…" /> : null}
      <ErrorList error={other.error} title="Could not load the other plan." />
      {otherId !== null && other.data?.result ? (
        <SideBySide left={{ jobId, result }} right={{ jobId: otherId, result: other.data.result }} width={width} />
      ) : null}
    </>
  );
}

function SideBySide({
  left,
  right,
  width,
}: {
  left: { jobId: number; result: PlanWithoutRows };
  right: { jobId: number; result: PlanWithoutRows };
  width: number;
}) {
  const leftLabel = `#${left.jobId} ${planLabel(left.jobId, left.result.inputs)}`;
  const rightLabel = `#${right.jobId} ${planLabel(right.jobId, right.result.inputs)}`;
  const columns = useMemo(
    () => [...planBars(left.result, leftLabel), ...planBars(right.result, rightLabel)],
    [left.result, right.result, leftLabel, rightLabel],
  );
  const chart = useMemo(() => {
    const stacked = stackBreakdowns(columns);
    return buildBreakdownChart(stacked.bars, stacked.series, { width, height: 340 });
  }, [columns, width]);
  const facts = comparisonFacts(left.result, right.result);

  return (
    <div data-testid="plan-comparison">
      <table className="data-table" data-testid="plan-comparison-facts">
        <caption className="visually-hidden">Two plans side by side</caption>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{leftLabel}</th>
            <th scope="col">
              <Link to={`/planning/plans/${right.jobId}`}>{rightLabel}</Link>
            </th>
          </tr>
        </thead>
        <tbody>
          {facts.map((fact) => (
            <tr key={fact.label}>
              <th scope="row">{fact.label}</th>
              <td>{fact.values[0]}</td>
              <td>{fact.values[1]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-testid="plan-comparison-difference">
        {differenceText(leftLabel, left.result.plan.total_usd, rightLabel, right.result.plan.total_usd)}
      </p>
      <BreakdownChart
        chart={chart}
        summary="Cost breakdowns of two plans, each with its baseline"
        testId="comparison-chart"
      />
      <CostTable columns={columns} caption="Cost rows of two plans" testId="comparison-costs" />
    </div>
  );
}

function differenceText(leftLabel: string, left: number, rightLabel: string, right: number): string {
  if (left === right) return `${leftLabel} and ${rightLabel} cost the same.`;
  const [cheaper, dearer, low, high] =
    left < right ? [leftLabel, rightLabel, left, right] : [rightLabel, leftLabel, right, left];
  return `${cheaper} costs ${formatPercent(1 - low / high)} less than ${dearer}.`;
}
