import { useMemo } from 'react';

import { DataTable, type TableState } from '@/components/table';

import type { FabricLink } from '../api/types';
import { linkColumns } from './linkColumns';
import '@/components/card.css';

/** Links as a table; with `table` (the Links page) sortable and with the chosen columns. */
export function LinksTable({
  links,
  fabricNames,
  table,
  busy,
}: {
  links: FabricLink[];
  fabricNames: Map<number, string>;
  table?: TableState;
  /** The rows are the previous answer while a new ordering or page loads. */
  busy?: boolean;
}) {
  const columns = useMemo(() => linkColumns(fabricNames), [fabricNames]);
  return (
    <DataTable
      caption="Links"
      testId="links-table"
      // Phones: each link a card, its facts in two columns (trial 30: a sideways-scrolling table).
      className="phone-cards phone-cards-grid"
      columns={columns}
      rows={links}
      rowKey={(link) => link.id}
      table={table}
      busy={busy}
      rowProps={(link) => ({
        'data-link-id': link.id,
        'data-admin-state': link.admin_state,
        'data-oper-state': link.oper_state,
        'data-flapping': link.flapping,
        'data-health': link.health,
      })}
    />
  );
}
