/** @vitest-environment jsdom */
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { isRouteHandle } from './pageTitle';
import { queryClient } from './queryClient';
import { routes } from './routes';

/** The server as far as these pages ask it: who is signed in, and one switch; nothing else exists. */
function serve() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://lightpath.test').pathname;
      const json = (body: unknown, status = 200) =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (path === '/api/auth/me/') return json({ username: 'ana', roles: ['technician'], is_admin: false });
      if (path === '/api/switches/5/overview/') return json({ id: 5, name: 'p1-tor3', links: [] });
      return json({ detail: 'Not found.' }, 404);
    }),
  );
}

function openAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** Every route a user can open (a path, not the redirect at "/"), with the path it is reached by. */
function pageRoutes(tree: RouteObject[], prefix = ''): { path: string; route: RouteObject }[] {
  return tree.flatMap((route) => {
    const path = route.path ? `${prefix.replace(/\/$/, '')}/${route.path.replace(/^\//, '')}` : prefix;
    const own = route.path ? [{ path, route }] : [];
    return [...own, ...pageRoutes(route.children ?? [], path)];
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
  document.title = 'Lightpath';
});

describe('page titles', () => {
  it('every page names its tab', () => {
    const pages = pageRoutes(routes);
    expect(pages.length).toBeGreaterThan(30);
    const untitled = pages.filter(({ route }) => !isRouteHandle(route.handle)).map(({ path }) => path);
    expect(untitled).toEqual([]);
  });

  it.each([
    ['/tickets/12', 'Ticket #12 · Lightpath'],
    ['/links', 'Links · Lightpath'],
    ['/fabrics/1/racks/p1-rack0', 'Rack p1-rack0 · Lightpath'],
    ['/no/such/page', 'Page not found · Lightpath'],
  ])('%s is titled "%s"', async (path, title) => {
    serve();
    openAt(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it("a switch's tab carries its name once the page has it", async () => {
    serve();
    openAt('/switches/5');
    await waitFor(() => expect(document.title).toBe('p1-tor3 · Lightpath'));
  });

  it('the title follows navigation', async () => {
    serve();
    const router = openAt('/links');
    await waitFor(() => expect(document.title).toBe('Links · Lightpath'));
    await router.navigate('/tickets');
    await waitFor(() => expect(document.title).toBe('Tickets · Lightpath'));
    expect(await screen.findByRole('link', { name: 'Tickets' })).toBeInTheDocument();
  });
});
