import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

import { errorMessages } from '@/lib/api-client';

import { useSearch } from '../api/useSearch';
import {
  hitToOpen,
  MAX_QUERY_LENGTH,
  moveActive,
  numberHits,
  opensSearch,
  SEARCH_DEBOUNCE_MS,
  searchableQuery,
} from '../searchBox';
import './headerSearch.css';

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The header's search over switches, ports, links, serials, racks, tickets and jobs: answers as
 * you type, "/" focuses it, arrows and Enter choose, Escape closes. */
export function HeaderSearch() {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = useDebounced(searchableQuery(text), SEARCH_DEBOUNCE_MS);
  const search = useSearch(query);

  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if (opensSearch(event)) {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const groups = search.data?.groups ?? [];
  const numbered = numberHits(groups);
  const count = groups.reduce((sum, group) => sum + group.hits.length, 0);
  const showPanel = open && text.trim().length > 0;

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function go(path: string) {
    close();
    setText('');
    input.current?.blur();
    void navigate(path);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      setActive((current) => moveActive(current, count, event.key as 'ArrowDown' | 'ArrowUp'));
    } else if (event.key === 'Enter') {
      const hit = hitToOpen(groups, active);
      if (hit && search.data?.query === query) go(hit.path);
    } else if (event.key === 'Escape') {
      if (showPanel) close();
      else input.current?.blur();
    }
  }

  const tooLong = text.trim().length > MAX_QUERY_LENGTH;
  let status: string | null = null;
  if (tooLong) status = `Type at most ${MAX_QUERY_LENGTH} characters.`;
  else if (search.isError) status = errorMessages(search.error).join(' ');
  else if (query === null || (search.isFetching && search.data?.query !== query)) status = 'Searching…';
  else if (count === 0) status = `Nothing found for “${query}”.`;

  return (
    <div className="header-search" role="search">
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-label="Search switches, ports, links, serials, racks, tickets and jobs"
        aria-expanded={showPanel}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showPanel && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder="Search  /"
        value={text}
        maxLength={MAX_QUERY_LENGTH + 20}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      {showPanel ? (
        <div className="header-search-panel" data-testid="search-results">
          {status ? (
            <p className="header-search-status" role="status">
              {status}
            </p>
          ) : null}
          <ul id={listId} role="listbox" aria-label="Search results">
            {groups.map((group, groupIndex) => (
              <li key={group.kind} role="presentation">
                <div className="header-search-group" role="presentation">
                  {group.title}
                  {group.more ? <span className="header-search-more"> · more: type more</span> : null}
                </div>
                <ul role="group" aria-label={group.title}>
                  {(numbered[groupIndex] ?? []).map(({ index, hit }) => (
                    <li
                      key={`${hit.path}-${hit.label}`}
                      id={`${listId}-${index}`}
                      role="option"
                      aria-selected={index === active}
                      className={index === active ? 'active' : undefined}
                      // mousedown, not click: the input's blur would close the list first
                      onMouseDown={(event) => {
                        event.preventDefault();
                        go(hit.path);
                      }}
                      onMouseEnter={() => setActive(index)}
                    >
                      <span className="header-search-label">{hit.label}</span>
                      <span className="header-search-subtitle">{hit.subtitle}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
