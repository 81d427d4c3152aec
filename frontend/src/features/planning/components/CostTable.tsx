import type { BarInput } from '../planData';
import { compareBreakdowns, formatPercent, formatUsd } from '../planData';

/** Table 4.1 rows per design side by side (total, then count at unit cost), with totals and the transceivers' share. */
export function CostTable({ columns, caption, testId }: { columns: BarInput[]; caption: string; testId: string }) {
  const { rows, totals } = compareBreakdowns(columns);
  return (
    <table className="data-table" data-testid={testId}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          {columns.map((column) => (
            <th key={`${column.group}/${column.key}`} scope="col" className="numeric">
              {column.group ? `${column.group}: ${column.label}` : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {row.values.map((value, i) => (
              <td key={i} className="numeric">
                {formatUsd(value)}
                {row.quantities[i] ? <span className="cost-quantity">{row.quantities[i]}</span> : null}
              </td>
            ))}
          </tr>
        ))}
        <tr className="total-row">
          <th scope="row">Total</th>
          {totals.map((total, i) => (
            <td key={i} className="numeric" data-testid={`${testId}-total`}>
              <strong>{formatUsd(total)}</strong>
            </td>
          ))}
        </tr>
        <tr>
          <th scope="row">Transceivers’ share</th>
          {columns.map((column, i) => (
            <td key={i} className="numeric">
              {formatPercent(column.breakdown.transceiver_share)}
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
}
