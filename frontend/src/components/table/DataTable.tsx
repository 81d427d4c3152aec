import { Fragment, type HTMLAttributes, type ReactNode } from 'react';

import { ariaSort, nextOrdering } from './tableState';
import type { TableState } from './useTableState';

export interface TableColumn<T> {
  key: string;
  label: string;
  /** The API's ordering field; without one the column does not sort. */
  sortField?: string;
  numeric?: boolean;
  /** Always shown: the column that names the row (and opens it). */
  required?: boolean;
  /** The cell is the row's header (`<th scope="row">`): the ticket's or job's number. */
  rowHeader?: boolean;
  /** Classes of the column's header and cells (a width, a phone card's placement). */
  className?: string;
  /** The label a phone card writes before the value (`data-label`); the header's by default. */
  cardLabel?: string;
  /** A header read by screen readers only (a column of buttons). */
  labelHidden?: boolean;
  /** false: nothing to export (a column of buttons); the CSV leaves it out. */
  csv?: boolean;
  cell: (row: T) => ReactNode;
}

interface DataTableProps<T> {
  caption: string;
  columns: readonly TableColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Sorting and chosen columns; without it (a table embedded in another page) every column shows, unsorted. */
  table?: TableState;
  /** Extra attributes of a row (data-* for tests and styles). */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;
  /** What follows a row (a job's log), given how many columns are shown. */
  afterRow?: (row: T, columnCount: number) => ReactNode;
  /** The rows shown are the previous answer while a new ordering or page loads. */
  busy?: boolean;
  className?: string;
  testId?: string;
}

function classes(...names: (string | false | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}

/** A list as a table: sortable headers (with aria-sort) and the columns the person chose to see. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  table,
  rowProps,
  afterRow,
  busy = false,
  className,
  testId,
}: DataTableProps<T>) {
  const shown = columns.filter((column) => column.required || !table?.hidden.includes(column.key));
  return (
    <div className={classes('table-scroll', busy && 'table-busy')}>
      {/* A sort on a large list takes a second or two: say so, the old rows stay dimmed meanwhile. */}
      {busy ? (
        <p className="table-busy-note" role="status">
          Updating…
        </p>
      ) : null}
      <table className={classes('data-table', className)} data-testid={testId} aria-busy={busy}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {shown.map((column) => {
              const headerClass = classes(column.numeric && 'numeric', column.className);
              const label = column.labelHidden ? <span className="visually-hidden">{column.label}</span> : column.label;
              if (!column.sortField || !table) {
                return (
                  <th key={column.key} scope="col" className={headerClass}>
                    {label}
                  </th>
                );
              }
              const sort = ariaSort(table.ordering, column.sortField);
              const field = column.sortField;
              return (
                <th key={column.key} scope="col" className={headerClass} aria-sort={sort}>
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => table.setOrdering(nextOrdering(table.ordering, field))}
                  >
                    {label}
                    <span aria-hidden="true" className="sort-mark">
                      {sort === 'ascending' ? ' ▲' : sort === 'descending' ? ' ▼' : ''}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Fragment key={rowKey(row)}>
              <tr {...rowProps?.(row)}>
                {shown.map((column) => {
                  const props = {
                    className: classes(column.numeric && 'numeric', column.className),
                    'data-label': column.cardLabel ?? column.label,
                  };
                  return column.rowHeader ? (
                    <th key={column.key} scope="row" {...props}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.key} {...props}>
                      {column.cell(row)}
                    </td>
                  );
                })}
              </tr>
              {afterRow?.(row, shown.length)}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
