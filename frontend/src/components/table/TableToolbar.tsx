import './table.css';

import { useId, useState } from 'react';

import { exportedColumnKeys, PAGE_SIZES, type PageSize, withCsvColumns } from './tableState';
import type { TableColumn } from './DataTable';
import type { TableState } from './useTableState';

interface TableToolbarProps<T> {
  /** The columns a person may hide; none: no column chooser (a table with its own layout). */
  columns?: readonly TableColumn<T>[];
  table: Pick<TableState, 'hidden' | 'setColumnShown' | 'pageSize' | 'setPageSize'>;
  /** The CSV of exactly what is filtered and in this order (`csvExportHref`); it gets the shown columns. */
  csvHref: string;
}

/** Above a list: which columns to show, rows per page and the CSV export. */
export function TableToolbar<T>({ columns, table, csvHref }: TableToolbarProps<T>) {
  const sizeId = useId();
  // The choices exist only while the chooser is open: closed, a column's name must not also label a
  // hidden checkbox beside the page's filter of the same name ("Assignee", "Kind", "State").
  const [chooserOpen, setChooserOpen] = useState(false);
  const optional = (columns ?? []).filter((column) => !column.required);
  // The CSV is the page: the columns shown, in the page's order.
  const href = columns ? withCsvColumns(csvHref, exportedColumnKeys(columns, table.hidden)) : csvHref;
  return (
    <div className="table-toolbar">
      {optional.length === 0 ? null : (
        <details className="column-chooser" onToggle={(event) => setChooserOpen(event.currentTarget.open)}>
          <summary>Columns</summary>
          {chooserOpen ? (
            <fieldset>
              <legend className="visually-hidden">Columns to show</legend>
              {optional.map((column) => (
                <label key={column.key}>
                  <input
                    type="checkbox"
                    checked={!table.hidden.includes(column.key)}
                    onChange={(event) => table.setColumnShown(column.key, event.target.checked)}
                  />{' '}
                  {column.label}
                </label>
              ))}
            </fieldset>
          ) : null}
        </details>
      )}
      <label htmlFor={sizeId}>Rows per page</label>
      <select
        id={sizeId}
        value={table.pageSize}
        onChange={(event) => table.setPageSize(Number(event.target.value) as PageSize)}
      >
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
      <a className="button-link" href={href} download>
        Export CSV
      </a>
    </div>
  );
}
