/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { StartPreview } from '../api/types';
import { testPreview, testWorkOrder } from '../testWorkOrder';
import { StartWorkPanel } from './StartWorkPanel';

function withClient(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>
  );
}

interface Call {
  url: string;
  body: unknown;
}

/**
 * The network boundary: the dry run answers `preview`; the start answers `start` (status and body).
 * Records every POST; the refetches after a start (GETs) answer an empty page.
 */
function stubServer(preview: StartPreview, start: { status: number; body: unknown } = { status: 200, body: {} }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (method === 'GET') return json(200, { count: 0, next: null, previous: null, results: [] });
      calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return url.includes('dry_run=1') ? json(200, preview) : json(start.status, start.body);
    }),
  );
  return calls;
}

beforeEach(() => {
  document.cookie = 'csrftoken=test-token';
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openOptions(canOverride = false) {
  render(withClient(<StartWorkPanel order={testWorkOrder()} canOverride={canOverride} />));
  fireEvent.click(screen.getByRole('button', { name: 'Start work' }));
  return screen.findByTestId('start-options');
}

describe('StartWorkPanel', () => {
  it('asks the dry run first; a safe start is confirmed, then sent without a restoration', async () => {
    const calls = stubServer(testPreview('safe'), { status: 200, body: testWorkOrder({ state: 'in_progress' }) });
    const options = await openOptions();
    expect(calls).toEqual([{ url: '/api/work-orders/3/start/?dry_run=1', body: {} }]);
    expect(options).toHaveAttribute('data-verdict', 'safe');
    expect(within(options).getByTestId('start-verdict')).toHaveTextContent('Safe to start');
    expect(within(options).getAllByRole('listitem')).toHaveLength(4);
    fireEvent.click(within(options).getByRole('button', { name: 'Confirm: start work' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual({
      url: '/api/work-orders/3/start/',
      body: { override_capacity: false, admin_reason: '' },
    });
  });

  it('shows the restoration with loss rates and penalty, and tells a technician to ask an operator', async () => {
    stubServer(testPreview('needs_restoration'));
    const options = await openOptions();
    const restoration = within(options).getByTestId('restoration');
    const row = within(restoration).getByTestId('restoration-link');
    expect(row).toHaveTextContent('p1-tor3:eth2/1 - p1-fab0:eth1/4');
    expect(row).toHaveTextContent('3.0e-5');
    expect(row).toHaveTextContent('1.2');
    expect(within(restoration).getByTestId('restoration-penalty')).toHaveTextContent(
      'Added penalty: 1.2 (the least possible)',
    );
    expect(within(restoration).getByTestId('ask-operator')).toHaveTextContent('Ask an operator');
    expect(within(restoration).queryByRole('button', { name: /Restore these links/ })).toBeNull();
    // Disabled links carry no traffic: the restoration says what they do once enabled.
    const why = within(restoration).getByTestId('restoration-why');
    expect(why).not.toHaveTextContent('still carry traffic');
    expect(why).toHaveTextContent('still work (they pass traffic with a small loss when enabled)');
  });

  it('tells a technician what happens after asking: the operator starts it, the technician finishes it here', async () => {
    stubServer(testPreview('needs_restoration'));
    const options = await openOptions();
    const ask = within(options).getByTestId('ask-operator');
    // The operator's start assigns the order to no one: the sentence must not promise that.
    expect(ask).not.toHaveTextContent('it is yours');
    expect(ask).toHaveTextContent('The operator starts it, which enables these links');
    expect(ask).toHaveTextContent('then you do the work and finish it on this page');
    expect(ask).toHaveTextContent('Today lists orders in progress that you started or whose ticket is assigned to you');
  });

  it('lets whoever needs no approval (an operator, or auto_restore) start with exactly the offered links', async () => {
    const preview = testPreview('needs_restoration');
    const calls = stubServer(
      { ...preview, restoration: { ...preview.restoration!, needs_approval: false } },
      { status: 200, body: testWorkOrder({ state: 'in_progress' }) },
    );
    const options = await openOptions();
    expect(within(options).queryByTestId('ask-operator')).toBeNull();
    fireEvent.click(within(options).getByRole('button', { name: 'Restore these links for the repair' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.body).toEqual({ restoration: [40], override_capacity: false, admin_reason: '' });
  });

  it('says who is short and by how much, and the orders to wait for; no override for a technician', async () => {
    stubServer(testPreview('blocked'));
    const options = await openOptions(false);
    expect(within(options).getByTestId('unreachable-tors')).toHaveTextContent(
      'p3-tor1 keeps at most 8 of 16 up-paths (12 now); it needs 12: 4 paths short',
    );
    const wait = within(within(options).getByTestId('waits-for')).getByRole('link');
    expect(wait).toHaveAttribute('href', '/work-orders/5');
    expect(wait).toHaveTextContent('Work order #5: Replace the cable');
    expect(within(options).getByTestId('no-override')).toHaveTextContent('Only an admin');
    expect(within(options).queryByRole('form', { name: 'Override with a reason' })).toBeNull();
  });

  it('with nothing to wait for, gives the server’s advice alone (no advice of its own) and the admin override', async () => {
    const nothingElse =
      'Blocked: p3-tor1 would fall to 8 of 16 up-paths, under the 12 it needs, and no lossy link can bring it back. ' +
      'Nothing else is in the way: with every other link back in service, this footprint alone still takes p3-tor1 ' +
      'under. Drain the rack’s traffic first, then an admin starts it with an override and a reason.';
    stubServer(testPreview('blocked', { waits_for: [], detail: nothingElse }));
    const options = await openOptions(true);
    expect(within(options).getByTestId('start-detail')).toHaveTextContent(nothingElse);
    expect(within(options).queryByRole('heading', { name: 'Wait for' })).toBeNull();
    expect(options).not.toHaveTextContent(/repaired|wait for/i);
    expect(within(options).getByRole('form', { name: 'Override with a reason' })).toBeVisible();
  });

  it('gives an admin the override, which needs a reason', async () => {
    const calls = stubServer(testPreview('blocked'), { status: 200, body: testWorkOrder({ state: 'in_progress' }) });
    const options = await openOptions(true);
    const form = within(options).getByRole('form', { name: 'Override with a reason' });
    fireEvent.click(within(form).getByRole('button', { name: 'Override and start work' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('An override needs a reason');
    expect(calls).toHaveLength(1);
    fireEvent.change(within(form).getByLabelText(/Override with a reason/), {
      target: { value: 'rack p3-rack1 drained of its servers' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Override and start work' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.body).toEqual({ override_capacity: true, admin_reason: 'rack p3-rack1 drained of its servers' });
  });

  it('shows the options again from a refused start (the restoration changed)', async () => {
    const preview = testPreview('needs_restoration');
    const changed = testPreview('blocked', { detail: 'the restoration changed: p3-tor1 cannot be saved now' });
    stubServer(
      { ...preview, restoration: { ...preview.restoration!, needs_approval: false } },
      { status: 409, body: changed },
    );
    const options = await openOptions();
    fireEvent.click(within(options).getByRole('button', { name: 'Restore these links for the repair' }));
    expect(await screen.findByTestId('start-refused')).toHaveTextContent(
      'Not started: the restoration changed: p3-tor1 cannot be saved now',
    );
    expect(screen.getByTestId('start-options')).toHaveAttribute('data-verdict', 'blocked');
  });
});
