/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { AppLayout } from './AppLayout';

function renderLayout(roles: string[], path = '/work-orders') {
  const user = { username: roles[0] ?? 'nobody', roles, is_admin: roles.includes('admin') };
  const router = createMemoryRouter(
    [
      {
        element: (
          <AppLayout user={user}>
            <Outlet />
          </AppLayout>
        ),
        children: [{ path: '*', element: <h1>Page</h1> }],
      },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The links of the main navigation, the folded ones included (jsdom applies no stylesheet). */
function navLinks(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Main' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent ?? '');
}

beforeEach(() => {
  // The ticket counts and the search ask the server; these tests read only the bar.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 503 })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AppLayout top bar', () => {
  it('gives the admin every page: daily ones in the bar, the rest under Plan and More', () => {
    renderLayout(['admin']);
    expect(navLinks()).toEqual([
      'Today',
      'Fabrics',
      'Links',
      'At risk',
      'Tickets',
      'Work orders',
      'Health',
      'Simulations',
      'Planning',
      'Circuits',
      'Failover',
      'Uplinks',
      'Decisions',
      'Jobs',
      'Audit',
      'Webhooks',
      'API docs',
    ]);
    expect(screen.getByRole('button', { name: 'Plan' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'More' })).toHaveAttribute('aria-expanded', 'false');
  });

  it("keeps a technician's bar to the daily pages and More", () => {
    renderLayout(['technician']);
    expect(navLinks()).toEqual([
      'Today',
      'Fabrics',
      'Links',
      'At risk',
      'Tickets',
      'Work orders',
      'Jobs',
      'Audit',
      'API docs',
    ]);
    expect(screen.queryByRole('button', { name: 'Plan' })).toBeNull();
  });

  it('opens one menu at a time; Escape closes it and gives its button the focus back', () => {
    renderLayout(['admin']);
    const plan = screen.getByRole('button', { name: 'Plan' });
    const more = screen.getByRole('button', { name: 'More' });
    fireEvent.click(plan);
    expect(plan).toHaveAttribute('aria-expanded', 'true');
    fireEvent.pointerDown(more);
    fireEvent.click(more);
    expect(plan).toHaveAttribute('aria-expanded', 'false');
    expect(more).toHaveAttribute('aria-expanded', 'true');

    const jobs = screen.getByRole('link', { name: 'Jobs' });
    jobs.focus();
    fireEvent.keyDown(jobs, { key: 'Escape' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(more).toHaveFocus();
  });

  it('closes a menu on a press outside it, and when the focus tabs out of it', () => {
    renderLayout(['admin']);
    const account = screen.getByRole('button', { name: 'Account: admin' });
    fireEvent.click(account);
    expect(account).toHaveAttribute('aria-expanded', 'true');
    fireEvent.pointerDown(screen.getByRole('heading', { name: 'Page' }));
    expect(account).toHaveAttribute('aria-expanded', 'false');

    const plan = screen.getByRole('button', { name: 'Plan' });
    fireEvent.click(plan);
    fireEvent.blur(plan, { relatedTarget: screen.getByRole('button', { name: 'More' }) });
    expect(plan).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the menu on following one of its links, and marks the menu holding the page as current', async () => {
    const router = renderLayout(['admin']);
    const plan = screen.getByRole('button', { name: 'Plan' });
    expect(plan).not.toHaveAttribute('aria-current');
    fireEvent.click(plan);
    fireEvent.click(screen.getByRole('link', { name: 'Circuits' }));
    expect(router.state.location.pathname).toBe('/circuits');
    expect(plan).toHaveAttribute('aria-expanded', 'false');
    expect(plan).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: 'More' })).not.toHaveAttribute('aria-current');
  });
});
