import { type ReactNode, useId, useState } from 'react';

import './FoldingFilters.css';

/**
 * A list's filters: shown as they are on wide screens; on a phone folded behind one "Filters"
 * button, so the list itself starts on the first screen (eight controls pushed the first ticket
 * to ~820 px of an 844 px screen). `active` says how many filters are set, on the button.
 */
export function FoldingFilters({ children, active = 0 }: { children: ReactNode; active?: number }) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <div className={open ? 'folding-filters open' : 'folding-filters'}>
      <button
        type="button"
        className="folding-filters-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        {open ? 'Hide filters' : 'Filters'}
        {active > 0 ? ` (${active} set)` : ''}
      </button>
      <div className="folding-filters-body" id={bodyId}>
        {children}
      </div>
    </div>
  );
}
