/** @vitest-environment jsdom */
import { describe, expect, it } from 'vitest';

import type { SearchGroup } from './api/types';
import { hitToOpen, MAX_QUERY_LENGTH, moveActive, numberHits, opensSearch, searchableQuery } from './searchBox';

const groups: SearchGroup[] = [
  {
    kind: 'switch',
    title: 'Switches',
    more: false,
    hits: [
      { label: 't0', subtitle: 'small · tor', path: '/switches/1' },
      { label: 't1', subtitle: 'small · tor', path: '/switches/2' },
    ],
  },
  {
    kind: 'rack',
    title: 'Racks',
    more: true,
    hits: [{ label: 'rack r-t0', subtitle: 'small', path: '/fabrics/1/racks/r-t0' }],
  },
];

function key(target: Element | null, extra: Partial<KeyboardEvent> = {}) {
  return { key: '/', ctrlKey: false, metaKey: false, altKey: false, target, ...extra };
}

describe('searchableQuery', () => {
  it('sends what is typed with its spaces collapsed', () => {
    expect(searchableQuery('  t0   -  s1 ')).toBe('t0 - s1');
  });

  it('sends nothing for blanks or more than the server takes', () => {
    expect(searchableQuery('   ')).toBeNull();
    expect(searchableQuery('x'.repeat(MAX_QUERY_LENGTH))).toHaveLength(MAX_QUERY_LENGTH);
    expect(searchableQuery('x'.repeat(MAX_QUERY_LENGTH + 1))).toBeNull();
  });
});

describe('arrow keys and Enter', () => {
  it('number the hits across groups in the order shown', () => {
    expect(numberHits(groups).map((hits) => hits.map((hit) => [hit.index, hit.hit.label]))).toEqual([
      [
        [0, 't0'],
        [1, 't1'],
      ],
      [[2, 'rack r-t0']],
    ]);
  });

  it('move down and up through every hit and wrap round', () => {
    expect(moveActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(2, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(0, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(1, 0, 'ArrowDown')).toBe(-1);
  });

  it('Enter opens the chosen hit, or the first when none is chosen', () => {
    expect(hitToOpen(groups, 2)?.path).toBe('/fabrics/1/racks/r-t0');
    expect(hitToOpen(groups, -1)?.path).toBe('/switches/1');
    expect(hitToOpen([], -1)).toBeNull();
  });
});

describe('"/" focuses the search', () => {
  it('from the page', () => {
    expect(opensSearch(key(document.body))).toBe(true);
  });

  it('not while typing in a field, nor with a modifier, nor for another key', () => {
    const field = document.createElement('input');
    const area = document.createElement('textarea');
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const inside = document.createElement('span');
    editable.appendChild(inside);
    expect(opensSearch(key(field))).toBe(false);
    expect(opensSearch(key(area))).toBe(false);
    expect(opensSearch(key(inside))).toBe(false);
    expect(opensSearch(key(document.body, { ctrlKey: true }))).toBe(false);
    expect(opensSearch(key(document.body, { key: '?' }))).toBe(false);
  });
});
