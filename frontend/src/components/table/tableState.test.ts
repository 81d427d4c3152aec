import { describe, expect, it } from 'vitest';

import {
  ariaSort,
  csvExportHref,
  exportedColumnKeys,
  loadHiddenColumns,
  nextOrdering,
  orderingFromParams,
  pageSizeFromParams,
  saveHiddenColumns,
  withCsvColumns,
  withTableState,
} from './tableState';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('ordering in the URL', () => {
  it('reads a sortable field, either way, and ignores one the table does not offer', () => {
    const sortable = ['length_m', 'a_switch__name'];
    expect(orderingFromParams(new URLSearchParams('ordering=-length_m'), sortable)).toEqual({
      field: 'length_m',
      descending: true,
    });
    expect(orderingFromParams(new URLSearchParams('ordering=a_switch__name'), sortable)).toEqual({
      field: 'a_switch__name',
      descending: false,
    });
    expect(orderingFromParams(new URLSearchParams('ordering=colour'), sortable)).toBeUndefined();
  });

  it('cycles a header: ascending, descending, then the default; another header starts ascending', () => {
    const ascending = nextOrdering(undefined, 'length_m');
    expect(ascending).toEqual({ field: 'length_m', descending: false });
    const descending = nextOrdering(ascending, 'length_m');
    expect(descending).toEqual({ field: 'length_m', descending: true });
    expect(nextOrdering(descending, 'length_m')).toBeUndefined();
    expect(nextOrdering(descending, 'fiber')).toEqual({ field: 'fiber', descending: false });
    expect(ariaSort(descending, 'length_m')).toBe('descending');
    expect(ariaSort(descending, 'fiber')).toBe('none');
  });

  it('keeps the filters, and a new ordering or page size goes back to page 1', () => {
    const params = new URLSearchParams('fabric=2&health=clean&health=degraded&page=4&page_size=100');
    const sorted = withTableState(params, { ordering: { field: 'length_m', descending: true } });
    expect(sorted.toString()).toBe('fabric=2&health=clean&health=degraded&page_size=100&ordering=-length_m');
    expect(withTableState(sorted, { ordering: null }).has('ordering')).toBe(false);
    const resized = withTableState(sorted, { pageSize: 25 });
    expect(pageSizeFromParams(resized)).toBe(25);
    expect(withTableState(resized, { pageSize: 50 }).has('page_size')).toBe(false);
    expect(withTableState(resized, { page: 3 }).get('page')).toBe('3');
  });

  it('reads an unknown page size as the default 50', () => {
    expect(pageSizeFromParams(new URLSearchParams('page_size=7'))).toBe(50);
    expect(pageSizeFromParams(new URLSearchParams('page_size=100'))).toBe(100);
  });
});

describe('CSV export link', () => {
  it('carries exactly the filters and the ordering, every row and no page', () => {
    const href = csvExportHref(
      '/api/links/',
      { fabric: 2, health: ['clean', 'degraded'], at_risk: true, oper_state: undefined, switch: '' },
      { field: 'length_m', descending: true },
    );
    expect(href).toBe('/api/links/?fabric=2&health=clean&health=degraded&at_risk=true&ordering=-length_m&format=csv');
    expect(csvExportHref('/api/jobs/', {}, undefined)).toBe('/api/jobs/?format=csv');
  });

  it('carries the columns shown, in the page order, leaving out buttons', () => {
    const columns = [
      { key: 'id', required: true },
      { key: 'log', required: true, csv: false },
      { key: 'kind' },
      { key: 'state' },
      { key: 'action', csv: false },
    ];
    const keys = exportedColumnKeys(columns, ['kind', 'id']);
    expect(keys).toEqual(['id', 'state']); // a required column stays even if once hidden
    expect(withCsvColumns('/api/jobs/?state=failed&format=csv', keys)).toBe(
      '/api/jobs/?state=failed&format=csv&columns=id%2Cstate',
    );
    expect(withCsvColumns('/api/jobs/?format=csv', [])).toBe('/api/jobs/?format=csv');
  });
});

describe('column chooser persistence', () => {
  it('remembers the hidden columns per table and drops columns that no longer exist', () => {
    const storage = new MemoryStorage();
    saveHiddenColumns(storage, 'links', ['fiber', 'speed', 'gone']);
    expect(loadHiddenColumns(storage, 'links', ['fabric', 'fiber', 'speed'])).toEqual(['fiber', 'speed']);
    expect(loadHiddenColumns(storage, 'tickets', ['kind'])).toEqual([]);
    storage.setItem('lightpath.table.links', '{not json');
    expect(loadHiddenColumns(storage, 'links', ['fiber'])).toEqual([]);
  });
});
