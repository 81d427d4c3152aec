import { formatLossRate } from '@/lib/format/number';

import type { TableColumn } from './DataTable';

/**
 * The penalty (a sum of loss rates) of a ticket or a decision, sortable on the server's `penalty`;
 * `title`, if given, says on hover what the penalty is made of.
 */
export function penaltyColumn<T extends { penalty: number | null }>(title?: (row: T) => string): TableColumn<T> {
  return {
    key: 'penalty',
    label: 'Penalty (loss rate)',
    cardLabel: 'Penalty',
    sortField: 'penalty',
    numeric: true,
    cell: (row) => <span title={title?.(row)}>{formatLossRate(row.penalty)}</span>,
  };
}
