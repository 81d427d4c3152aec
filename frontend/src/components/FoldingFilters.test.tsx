/** @vitest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { FoldingFilters } from './FoldingFilters';

describe('FoldingFilters', () => {
  it('folds the filters behind one button that opens and closes them', () => {
    render(
      <FoldingFilters active={2}>
        <label>
          State <input />
        </label>
      </FoldingFilters>,
    );
    const toggle = screen.getByRole('button', { name: 'Filters (2 set)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // The button names the filters it opens, for screen readers too.
    const body = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(body).toContainElement(screen.getByLabelText('State'));

    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide filters (2 set)' })).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Hide filters (2 set)' }));
    expect(screen.getByRole('button', { name: 'Filters (2 set)' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('says nothing of a count when no filter is set', () => {
    render(
      <FoldingFilters>
        <input aria-label="Fabric" />
      </FoldingFilters>,
    );
    expect(screen.getByRole('button', { name: 'Filters' })).toBeInTheDocument();
  });
});
