import type { SimulationResult } from '../api/types';
import { changeText, corroptByAccuracy, formatFraction, formatNumber } from '../simulationData';

/**
 * CorrOpt's penalty integral at each repair accuracy, per constraint, and the change against the
 * first accuracy listed: what better repair recommendations are worth (the seed's Figure 3.19).
 */
export function RepairAccuracyTable({ result }: { result: SimulationResult }) {
  const accuracies = result.settings.accuracies;
  const rows = corroptByAccuracy(result);
  const baseline = accuracies[0];
  return (
    <table className="data-table" data-testid="repair-accuracy-table">
      <caption>CorrOpt’s penalty·s by repair accuracy</caption>
      <thead>
        <tr>
          <th scope="col">Constraint</th>
          {accuracies.map((accuracy, i) => (
            <th key={accuracy} scope="col" className="numeric">
              accuracy {accuracy}
              {i > 0 ? ` (vs ${baseline})` : ''}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.constraint}>
            <th scope="row">{formatFraction(row.constraint)}</th>
            {row.penalties.map((penalty, i) => (
              <td key={accuracies[i]} className="numeric">
                {penalty === null ? '—' : formatNumber(penalty)}
                {i > 0 ? ` (${changeText(row.penalties[0] ?? null, penalty)})` : ''}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
