/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ConstraintEditor } from './ConstraintEditor';

const CONSTRAINTS = { fabric: 1, default: 0.75, overrides: { 'p0-tor0': 0.9 }, tors: 32 };

function withClient(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{node}</QueryClientProvider>;
}

beforeEach(() => {
  document.cookie = 'csrftoken=test-token';
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ConstraintEditor', () => {
  it('shows the constraints read-only to a role that may not change them', () => {
    render(withClient(<ConstraintEditor fabricId={1} constraints={CONSTRAINTS} torNames={[]} canEdit={false} />));
    expect(screen.getByTestId('constraints-read-only')).toHaveTextContent('Fabric default: 0.75');
    expect(screen.getByText('p0-tor0: 0.9')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save constraints' })).toBeNull();
  });

  it('sends only what changed and lists every problem the server found', async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return new Response(
          JSON.stringify({
            default: ["must be between 0 and 1 (a fraction of the ToR's up-paths), got 1.5"],
            overrides: { 'p0-fab0': ["'p0-fab0' is on tier 1; only ToRs (tier 0) have a capacity constraint"] },
          }),
          { status: 400, headers: { 'Content-Type': 'application/json' } },
        );
      }),
    );
    render(
      withClient(<ConstraintEditor fabricId={1} constraints={CONSTRAINTS} torNames={['p0-tor0']} canEdit={true} />),
    );
    const form = screen.getByRole('form', { name: 'Capacity constraints' });
    expect(within(form).getByRole('button', { name: 'Save constraints' })).toBeDisabled();
    fireEvent.change(within(form).getByLabelText(/Fabric default/), { target: { value: '1.5' } });
    fireEvent.change(within(form).getByLabelText('Add an override for ToR'), { target: { value: 'p0-fab0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save constraints' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The constraints were not changed.');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      "default: must be between 0 and 1 (a fraction of the ToR's up-paths), got 1.5",
      "overrides.p0-fab0: 'p0-fab0' is on tier 1; only ToRs (tier 0) have a capacity constraint",
    ]);
    // The new override starts at the typed default; the untouched p0-tor0 is not sent.
    expect(bodies).toEqual([{ default: 1.5, overrides: { 'p0-fab0': 1.5 } }]);
  });
});
