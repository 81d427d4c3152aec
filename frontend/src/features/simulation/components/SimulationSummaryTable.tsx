import type { SimulationResult } from '../api/types';
import { formatFraction, formatNumber, POLICY_STYLE } from '../simulationData';

/** Every run and policy: the penalty integral, its ratio to CorrOpt's, the lowest worst-ToR fraction, counts. */
export function SimulationSummaryTable({ result }: { result: SimulationResult }) {
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="simulation-summary">
        <caption className="visually-hidden">Simulation summary per run and policy</caption>
        <thead>
          <tr>
            <th scope="col">Constraint</th>
            <th scope="col">Repair accuracy</th>
            <th scope="col">Policy</th>
            <th scope="col" className="numeric">
              Penalty·s
            </th>
            <th scope="col" className="numeric">
              ÷ CorrOpt’s
            </th>
            <th scope="col" className="numeric">
              Lowest worst ToR
            </th>
            <th scope="col" className="numeric">
              Disables
            </th>
            <th scope="col" className="numeric">
              Refused
            </th>
            <th scope="col" className="numeric">
              Repairs
            </th>
            <th scope="col" className="numeric">
              Constraint breaches
            </th>
          </tr>
        </thead>
        <tbody>
          {result.runs.flatMap((run) =>
            run.policies.map((row) => (
              <tr key={`${run.constraint}-${run.accuracy}-${row.policy}`} data-testid="simulation-summary-row">
                <td>{formatFraction(run.constraint)}</td>
                <td>{run.accuracy}</td>
                <th scope="row">{POLICY_STYLE[row.policy].label}</th>
                <td className="numeric">{formatNumber(row.penalty_seconds)}</td>
                <td className="numeric">{formatNumber(row.penalty_ratio_vs_corropt)}</td>
                <td className="numeric">{formatFraction(row.lowest_worst_fraction)}</td>
                <td className="numeric">{row.counts.disables}</td>
                <td className="numeric">{row.counts.refused_arrivals}</td>
                <td className="numeric">{row.counts.repairs}</td>
                <td className="numeric">{row.counts.threshold_breaches}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}
