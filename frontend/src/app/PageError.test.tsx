/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PageError } from './PageError';

function BrokenPage(): never {
  throw new TypeError("Cannot read properties of undefined (reading 'map')");
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('PageError', () => {
  it('shows a page that failed to render as a named error inside the layout, the navigation kept', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React and the router log the thrown error
    // The shape of router.tsx: the layout route, then a pathless route holding the error element.
    const router = createMemoryRouter(
      [
        {
          element: (
            <>
              <nav aria-label="Main">Fabrics</nav>
              <Outlet />
            </>
          ),
          children: [{ errorElement: <PageError />, children: [{ path: 'broken/:id', element: <BrokenPage /> }] }],
        },
      ],
      { initialEntries: ['/broken/6'] },
    );
    render(<RouterProvider router={router} />);

    expect(await screen.findByRole('heading', { name: 'This page could not be shown' })).toBeInTheDocument();
    expect(screen.getByTestId('page-error')).toHaveTextContent(
      "Something on /broken/6 failed: Cannot read properties of undefined (reading 'map')",
    );
    expect(screen.getByRole('link', { name: 'go to fabrics' })).toHaveAttribute('href', '/fabrics');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
