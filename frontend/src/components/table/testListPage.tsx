/** Renders a list page against canned API answers, recording what it asked for (vitest only). */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, vi } from 'vitest';

export const DEMO_FABRICS = { count: 1, next: null, previous: null, results: [{ id: 1, name: 'demo-fb' }] };

/** The query string of the last request to `pathname`. */
export function lastQuery(asked: readonly URL[], pathname: string): URLSearchParams {
  const last = asked.filter((url) => url.pathname === pathname).at(-1);
  if (!last) throw new Error(`nothing asked of ${pathname}`);
  return last.searchParams;
}

/** Opens the column chooser and switches the column `name` on or off. */
export async function toggleColumn(name: string): Promise<void> {
  fireEvent.click(screen.getByText('Columns'));
  fireEvent.click(await screen.findByRole('checkbox', { name }));
}

/** Each test starts with no page, no fetch stub and no remembered columns. */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

export function page<T>(results: T[]) {
  return { count: results.length, next: null, previous: null, results };
}

/**
 * `answer(url)` is the body of every GET (fabric choices and the user are answered already); the
 * returned `asked` lists each request's URL, `router` shows where the page navigated.
 */
export function renderListPage(
  element: ReactElement,
  path: string,
  url: string,
  answer: (url: URL) => unknown,
  user: Record<string, unknown> = { username: 'operator', roles: ['operator'] },
) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (requested: string) => {
      const parsed = new URL(requested, 'http://lightpath.test');
      asked.push(parsed);
      const body =
        parsed.pathname === '/api/fabrics/'
          ? DEMO_FABRICS
          : parsed.pathname === '/api/auth/me/'
            ? user
            : answer(parsed);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path, element }], { initialEntries: [url] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { asked, router };
}
