export { DataTable, type TableColumn } from './DataTable';
export { penaltyColumn } from './penaltyColumn';
export { TableToolbar } from './TableToolbar';
export { csvExportHref, type Ordering, type PageSize } from './tableState';
export { type TableState, useTableState } from './useTableState';
