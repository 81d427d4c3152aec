/** The header search's logic without React: what is sent, which hit the arrow keys reach, and
 * when "/" opens the search. */
import type { SearchGroup, SearchHit } from './api/types';

/** The server's limit (fabric/services/search.py MAX_QUERY_LENGTH). */
export const MAX_QUERY_LENGTH = 100;
/** Wait this long after the last key before asking: one request per pause, not per key. */
export const SEARCH_DEBOUNCE_MS = 200;

/** The query to send for what is typed: spaces collapsed; null for nothing or too long. */
export function searchableQuery(text: string): string | null {
  const query = text.split(/\s+/).filter(Boolean).join(' ');
  return query.length === 0 || query.length > MAX_QUERY_LENGTH ? null : query;
}

export interface NumberedHit {
  /** Position among every hit of every group: what the arrow keys move through. */
  index: number;
  kind: SearchGroup['kind'];
  hit: SearchHit;
}

/** Every group's hits numbered in the order shown. */
export function numberHits(groups: readonly SearchGroup[]): NumberedHit[][] {
  let index = 0;
  return groups.map((group) => group.hits.map((hit) => ({ index: index++, kind: group.kind, hit })));
}

/** The hit an arrow key moves to, wrapping round; -1 (none) when there are no hits. */
export function moveActive(active: number, count: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count === 0) return -1;
  if (key === 'ArrowDown') return active < 0 || active >= count - 1 ? 0 : active + 1;
  return active <= 0 ? count - 1 : active - 1;
}

/** The hit Enter opens: the one chosen with the arrows, else the first. */
export function hitToOpen(groups: readonly SearchGroup[], active: number): SearchHit | null {
  const hits = groups.flatMap((group) => group.hits);
  return hits[active >= 0 && active < hits.length ? active : 0] ?? null;
}

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** "/" focuses the search, except while the user types in a field (where "/" is a character). */
export function opensSearch(event: KeyLike): boolean {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target as HTMLElement | null;
  if (!target || typeof target.closest !== 'function') return true;
  return !target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]');
}
