/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { RecoveryApplied, RecoveryProposal } from '../api/types';
import { FabricRecovery } from './RecoveryPanel';

const UNDER: RecoveryProposal = {
  fabric: 1,
  auto_restore: false,
  detail:
    '2 ToRs under their requirement, worst p1-tor3 at 8 of 16 up-paths (12 required); re-enabling 1 lossy link ' +
    '(added penalty 6.02e-05) brings 1 ToR back; p1-tor3 needs a repair (no lossy link brings p1-tor3 above 8 of ' +
    'the 12 it requires).',
  under_tors: [
    { switch: 45, name: 'p1-tor3', paths: 8, required_paths: 12, design_paths: 16 },
    { switch: 12, name: 'p0-tor3', paths: 11, required_paths: 12, design_paths: 16 },
  ],
  links: [{ id: 16, name: 'p0-tor3:eth2/4 - p0-fab3:eth1/4', loss_rate: 5.1e-4, penalty: 6.02e-5 }],
  added_penalty: 6.02e-5,
  proven_optimal: true,
  unreachable_tors: [
    {
      switch: 45,
      name: 'p1-tor3',
      paths_before: 8,
      paths_best: 8,
      floor: 12,
      required_paths: 12,
      design_paths: 16,
      links_out: [{ id: 45, name: 'p1-tor3:eth2/1 - p1-fab0:eth1/4', state: 'down' }],
    },
  ],
};

const AFTER: RecoveryProposal = {
  ...UNDER,
  detail: '1 ToR under its requirement, worst p1-tor3 at 8 of 16 up-paths (12 required); p1-tor3 needs a repair.',
  under_tors: [UNDER.under_tors[0]!],
  links: [],
  added_penalty: 0,
};

function user(roles: string[]) {
  return { id: 1, username: roles[0] ?? 'nobody', roles, is_admin: false };
}

interface Call {
  url: string;
  body: unknown;
}

/** The network boundary: /api/auth/me/ answers `me`, GET recovery `proposal`, POST recovery `apply`. */
function stubServer(
  me: ReturnType<typeof user>,
  proposal: RecoveryProposal,
  apply: { status: number; body: unknown } = { status: 200, body: {} },
) {
  const posts: Call[] = [];
  let current = proposal;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (url.includes('/api/auth/me/')) return json(200, me);
      if ((init.method ?? 'GET') === 'GET') return json(200, current);
      posts.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (apply.status === 200) current = (apply.body as RecoveryApplied).after;
      else if (apply.status === 409) current = apply.body as RecoveryProposal;
      return json(apply.status, apply.body);
    }),
  );
  return posts;
}

function renderRecovery() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <FabricRecovery fabricId={1} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  document.cookie = 'csrftoken=test-token';
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FabricRecovery', () => {
  it('shows the ToRs under their requirement worst first, the re-enables with their penalty and who needs a repair', async () => {
    stubServer(user(['operator']), UNDER);
    renderRecovery();
    const panel = await screen.findByTestId('recovery');
    expect(screen.getByRole('heading', { name: 'Capacity recovery' })).toBeTruthy();
    const rows = within(panel).getAllByTestId('recovery-under-tor');
    expect(rows.map((row) => row.textContent)).toEqual(['p1-tor38 of 1612', 'p0-tor311 of 1612']);
    const link = within(panel).getByTestId('recovery-link');
    expect(within(link).getByRole('link', { name: 'p0-tor3:eth2/4 - p0-fab3:eth1/4' }).getAttribute('href')).toBe(
      '/links/16',
    );
    expect(link.textContent).toContain('5.1e-4');
    expect(within(panel).getByTestId('recovery-penalty').textContent).toBe(
      'Added penalty: 6.02e-5 (the least possible)',
    );
    expect(within(panel).getByTestId('recovery-unreachable').textContent).toContain(
      'p1-tor3: no lossy link brings it above 8 of the 12 up-paths it requires',
    );
    // What to repair is named and linked, not left to find.
    const uplink = within(within(panel).getByTestId('recovery-unreachable')).getByRole('link', {
      name: 'p1-tor3:eth2/1 - p1-fab0:eth1/4',
    });
    expect(uplink.getAttribute('href')).toBe('/links/45');
    expect(within(panel).getByTestId('recovery-unreachable').textContent).toContain(
      'repair its uplinks out of service: p1-tor3:eth2/1 - p1-fab0:eth1/4 (down).',
    );
    expect(within(panel).getByTestId('recovery-detail').textContent).toBe(UNDER.detail);
  });

  it('says what the lossy links do: disabled ones carry no traffic, enabled ones pass it with a small loss', async () => {
    stubServer(user(['operator']), UNDER);
    renderRecovery();
    const why = await screen.findByTestId('recovery-links-why');
    expect(why.textContent).not.toContain('still carry traffic');
    expect(why.textContent).toContain('still work (they pass traffic with a small loss when enabled)');
  });

  it('lets an operator apply exactly the proposed links and shows what it did and what is left', async () => {
    const applied: RecoveryApplied = {
      enabled: UNDER.links,
      added_penalty: UNDER.added_penalty,
      detail: `Enabled 1 lossy link (added penalty 6.02e-05). Now: ${AFTER.detail}`,
      after: AFTER,
    };
    const posts = stubServer(user(['operator']), UNDER, { status: 200, body: applied });
    renderRecovery();
    fireEvent.click(await screen.findByRole('button', { name: 'Apply: re-enable 1 link' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: re-enable 1 link' }));
    // The green box names the links it enabled; the fabric's state now is the sentence below it, once.
    expect((await screen.findByTestId('recovery-applied')).textContent).toBe(
      'Enabled 1 lossy link: p0-tor3:eth2/4 - p0-fab3:eth1/4 (added penalty 6.02e-5).',
    );
    await waitFor(() => expect(screen.getByTestId('recovery-detail').textContent).toBe(AFTER.detail));
    expect(screen.getAllByText(AFTER.detail, { exact: false })).toHaveLength(1);
    expect(posts).toEqual([{ url: '/api/fabrics/1/recovery/', body: { links: [16] } }]);
    // What is left: the ToR that needs a repair, nothing more to apply.
    await waitFor(() => expect(screen.getAllByTestId('recovery-under-tor')).toHaveLength(1));
    expect(screen.queryByTestId('recovery-apply')).toBeNull();
    expect(screen.getByTestId('recovery-unreachable').textContent).toContain('p1-tor3');
  });

  it('asks for a confirmation before putting corrupting links back in service; Cancel sends nothing', async () => {
    const posts = stubServer(user(['operator']), UNDER);
    renderRecovery();
    fireEvent.click(await screen.findByRole('button', { name: 'Apply: re-enable 1 link' }));
    const confirm = screen.getByTestId('recovery-confirm');
    expect(confirm.textContent).toContain('p0-tor3:eth2/4 - p0-fab3:eth1/4');
    expect(confirm.textContent).toContain('back in service');
    expect(posts).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('recovery-confirm')).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply: re-enable 1 link' })).toBeTruthy();
    expect(posts).toEqual([]);
  });

  it('shows the fresh proposal when the links changed before the apply', async () => {
    const fresh: RecoveryProposal = {
      ...UNDER,
      detail: `The recovery changed: apply the links proposed now. ${UNDER.detail}`,
      links: [{ id: 19, name: 'p0-tor4:eth2/3 - p0-fab2:eth1/5', loss_rate: 3e-5, penalty: 4e-6 }],
    };
    stubServer(user(['admin']), UNDER, { status: 409, body: fresh });
    renderRecovery();
    fireEvent.click(await screen.findByRole('button', { name: 'Apply: re-enable 1 link' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: re-enable 1 link' }));
    expect((await screen.findByTestId('recovery-changed')).textContent).toContain('The proposal changed');
    await waitFor(() =>
      expect(screen.getByTestId('recovery-link').textContent).toContain('p0-tor4:eth2/3 - p0-fab2:eth1/5'),
    );
    expect(screen.queryByText('Could not apply the recovery.')).toBeNull();
  });

  it('is read-only for a viewer, saying who applies it and why', async () => {
    stubServer(user(['viewer']), UNDER);
    renderRecovery();
    expect((await screen.findByTestId('recovery-read-only')).textContent).toContain(
      'operators and admins apply a recovery',
    );
    expect(screen.queryByRole('button', { name: /Apply/ })).toBeNull();
    expect(screen.getByTestId('recovery-link')).toBeTruthy();
  });

  it('shows nothing while every ToR is at or above its requirement', async () => {
    const none: RecoveryProposal = {
      ...UNDER,
      detail: 'Every ToR is at or above its requirement: nothing to recover.',
      under_tors: [],
      links: [],
      added_penalty: 0,
      unreachable_tors: [],
    };
    const fetched = stubServer(user(['operator']), none);
    const { container } = renderRecovery();
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.textContent).toBe('');
    expect(fetched).toEqual([]);
  });
});
