import type { HTMLAttributes, ReactNode } from 'react';

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
  testId?: string;
}

/** A list as a table: sortable headers (with aria-sort) and the columns the person chose to see. */
export function DataTable<T>({ caption, columns, rows, rowKey, table, rowProps, testId }: DataTableProps<T>) {
  const shown = columns.filter((column) => column.required || !table?.hidden.includes(column.key));
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {shown.map((column) => {
              const className = column.numeric ? 'numeric' : undefined;
              if (!column.sortField || !table) {
                return (
                  <th key={column.key} scope="col" className={className}>
                    {column.label}
                  </th>
                );
              }
              const sort = ariaSort(table.ordering, column.sortField);
              const field = column.sortField;
              return (
                <th key={column.key} scope="col" className={className} aria-sort={sort}>
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => table.setOrdering(nextOrdering(table.ordering, field))}
                  >
                    {column.label}
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
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {shown.map((column) => (
                <td key={column.key} className={column.numeric ? 'numeric' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
