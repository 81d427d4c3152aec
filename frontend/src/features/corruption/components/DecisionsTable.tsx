import { useMemo } from 'react';

import { DataTable, type TableState } from '@/components/table';
import '@/components/card.css';

import type { Decision } from '../api/types';
import { decisionColumns } from './decisionColumns';

/** CorrOpt's decisions: what it did to which link, and what that did to the ToRs below. */
export function DecisionsTable({
  decisions,
  fabricNames,
  table,
  busy,
}: {
  decisions: Decision[];
  fabricNames?: Map<number, string>;
  /** The Decisions page's sorting and chosen columns. */
  table?: TableState;
  busy?: boolean;
}) {
  const columns = useMemo(() => decisionColumns(fabricNames), [fabricNames]);
  return (
    <DataTable
      caption="CorrOpt decisions"
      className="decisions-table phone-cards"
      testId="decisions-table"
      columns={columns}
      rows={decisions}
      rowKey={(decision) => decision.id}
      table={table}
      busy={busy}
      rowProps={(decision) => ({
        'data-testid': 'decision-row',
        'data-decision-id': decision.id,
        'data-action': decision.action,
        'data-kind': decision.kind,
      })}
    />
  );
}
