/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';

import { DataTable, type TableColumn } from './DataTable';
import { TableToolbar } from './TableToolbar';
import { csvExportHref } from './tableState';
import { useTableState } from './useTableState';

interface Row {
  id: number;
  name: string;
  length: number;
}

const COLUMNS: TableColumn<Row>[] = [
  { key: 'name', label: 'Name', sortField: 'name', required: true, cell: (row) => row.name },
  { key: 'length', label: 'Length (m)', sortField: 'length_m', numeric: true, cell: (row) => row.length },
  { key: 'note', label: 'Note', cell: () => 'n/a' },
];
const ROWS: Row[] = [
  { id: 1, name: 'tor-a', length: 3 },
  { id: 2, name: 'tor-b', length: 7 },
];

function Location() {
  const location = useLocation();
  return <output data-testid="search">{location.search}</output>;
}

function Table() {
  const table = useTableState(
    'demo',
    COLUMNS.map((column) => column.key),
    ['name', 'length_m'],
  );
  return (
    <>
      <TableToolbar
        columns={COLUMNS}
        table={table}
        csvHref={csvExportHref('/api/demo/', { fabric: 2 }, table.ordering)}
      />
      <DataTable caption="Demo" columns={COLUMNS} rows={ROWS} rowKey={(row) => row.id} table={table} />
      <Location />
    </>
  );
}

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Table />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('DataTable', () => {
  it('sorts by a header click: the URL, aria-sort and the CSV link follow', () => {
    renderAt('/demo?fabric=2&page=3');
    const header = () => screen.getByRole('columnheader', { name: /Length/ });
    expect(header()).toHaveAttribute('aria-sort', 'none');
    fireEvent.click(screen.getByRole('button', { name: /Length/ }));
    expect(header()).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByTestId('search').textContent).toBe('?fabric=2&ordering=length_m');
    fireEvent.click(screen.getByRole('button', { name: /Length/ }));
    expect(header()).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      // Only the columns shown, in their order: the CSV is the page.
      '/api/demo/?fabric=2&ordering=-length_m&format=csv&columns=name%2Clength%2Cnote',
    );
    fireEvent.click(screen.getByRole('button', { name: /Length/ }));
    expect(header()).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByTestId('search').textContent).toBe('?fabric=2');
  });

  it('reads the ordering from the URL it was opened with', () => {
    renderAt('/demo?ordering=-name');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('hides a column chosen off, and remembers it when the page opens again', async () => {
    const first = renderAt('/demo');
    expect(screen.getByRole('columnheader', { name: 'Note' })).toBeInTheDocument();
    // Closed, the chooser holds no checkbox (its names would also label the page's filters).
    expect(screen.queryByRole('checkbox', { name: 'Note' })).toBeNull();
    fireEvent.click(screen.getByText('Columns'));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Note' }));
    expect(screen.queryByRole('columnheader', { name: 'Note' })).not.toBeInTheDocument();
    first.unmount();
    renderAt('/demo');
    expect(screen.queryByRole('columnheader', { name: 'Note' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('Columns'));
    expect(await screen.findByRole('checkbox', { name: 'Note' })).not.toBeChecked();
    // The column that names the row cannot be hidden.
    expect(screen.queryByRole('checkbox', { name: 'Name' })).not.toBeInTheDocument();
  });

  it('changes the page size in the URL', () => {
    renderAt('/demo?page=2');
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '100' } });
    expect(screen.getByTestId('search').textContent).toBe('?page_size=100');
  });
});
