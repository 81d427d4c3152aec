/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { AssignableUser } from '../api/types';
import { useAssignableUsers } from '../api/useAssignableUsers';
import { PlanDayForm } from './PlanDayForm';

const user = (username: string, roles: string[], full_name = ''): AssignableUser => ({
  username,
  roles,
  is_admin: roles.includes('admin'),
  full_name,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PlanDayForm assignees', () => {
  it('asks the server for technicians, operators and admins (the API plans for all three)', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify({ count: 0, next: null, previous: null, results: [] }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useAssignableUsers(true), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const asked = new URL(urls[0]!, 'http://x');
    expect(asked.pathname).toBe('/api/users/');
    expect(asked.searchParams.getAll('role')).toEqual(['technician', 'operator', 'admin']);
  });

  it('offers technicians first, then operators, then admins, each with its role', () => {
    render(
      <PlanDayForm
        fabrics={[]}
        fabric={undefined}
        onFabricChange={() => {}}
        users={[
          user('root', ['admin', 'collector', 'operator', 'planner', 'technician', 'viewer']),
          user('olga', ['operator'], 'Olga Op'),
          user('tina', ['technician'], 'Tina Tech'),
          user('ann', ['admin']),
          user('bob', ['technician']),
        ]}
        submitting={false}
        onSubmit={() => {}}
      />,
    );
    const assignees = screen.getByRole('group', { name: /Who goes on the floor/ });
    const labels = within(assignees)
      .getAllByRole('checkbox')
      .map((box) => box.closest('label')?.textContent);
    expect(labels).toEqual([
      'bob — technician',
      'tina (Tina Tech) — technician',
      'olga (Olga Op) — operator',
      'ann — admin',
      'root — admin',
    ]);
  });
});
