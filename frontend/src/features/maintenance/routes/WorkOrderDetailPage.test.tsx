/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { testLinkFacts, testWorkOrder } from '../testWorkOrder';
import { WorkOrderDetailPage } from './WorkOrderDetailPage';

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

/** The network boundary: the work order, its links, transceivers and switches, and who is asking. */
function stubServer(user: { username: string; roles: string[]; is_admin: boolean }, order = testWorkOrder()) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://test');
      const path = url.pathname;
      let body: unknown;
      if (path === '/api/auth/me/') body = user;
      else if (path === '/api/work-orders/3/') body = order;
      else if (path.startsWith('/api/links/')) body = testLinkFacts(Number(path.split('/')[3]));
      else if (path === '/api/transceivers/')
        body = page(
          url.searchParams.getAll('link').flatMap((link) => [
            {
              id: Number(link) * 2,
              url: '',
              link: Number(link),
              side: 'a',
              model: 5,
              model_name: '100G-SR4',
              serial: `SN-${link}`,
              installed_at: null,
              last_reseated_at: null,
            },
          ]),
        );
      else if (path === '/api/switches/')
        body = page(
          url.searchParams.getAll('name').map((name, index) => ({
            id: index + 1,
            name,
            tier: name.includes('tor') ? 0 : 1,
            rack: name.includes('tor') ? 'p3-rack1' : `fab-rack-${name.slice(-1)}`,
          })),
        );
      else return new Response('{}', { status: 404 });
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/work-orders/3']}>
        <Routes>
          <Route path="/work-orders/:workOrderId" element={<WorkOrderDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('WorkOrderDetailPage', () => {
  it('puts the place first and lists what to bring for each link of the cable', async () => {
    stubServer({ username: 'technician', roles: ['technician'], is_admin: false });
    renderPage();
    const location = await screen.findByTestId('visit-location');
    expect(within(location).getByTestId('location-row')).toHaveTextContent('pod 3');
    expect(within(location).getByTestId('location-rack')).toHaveTextContent('p3-rack1');
    expect(within(location).getByTestId('location-switch')).toHaveTextContent('p3-tor1');
    expect(within(location).getByTestId('location-ports')).toHaveTextContent('eth2/1, eth2/2, eth2/3, eth2/4');
    // A breakout cable is worked at both ends: it fans out to the four fabric switches.
    const far = within(location).getAllByTestId('location-far');
    expect(far.map((place) => within(place).getByTestId('location-far-switch').textContent)).toEqual([
      'p3-fab0',
      'p3-fab1',
      'p3-fab2',
      'p3-fab3',
    ]);
    expect(within(far[1]!).getByTestId('location-far-rack')).toHaveTextContent('fab-rack-1');
    const bring = screen.getAllByTestId('bring-link');
    expect(bring).toHaveLength(4);
    expect(bring[1]).toHaveTextContent('p3-tor1 eth2/2 → p3-fab1 eth1/2');
    expect(bring[1]).toHaveTextContent('4.7 m, MMF');
    expect(bring[1]).toHaveTextContent('Transceiver here100G-SR4, serial SN-102');
    expect(within(bring[1]!).getByTestId('far-rack')).toHaveTextContent('fab-rack-1');
    expect(screen.getByRole('link', { name: 'Ticket #3' })).toHaveAttribute('href', '/tickets/3');
    expect(screen.getByRole('button', { name: 'Start work' })).toBeInTheDocument();
  });

  it('sends a far-end transceiver’s repair to the far switch, with its transceiver “here”', async () => {
    // The demo's order #1 shape: the transceiver at p3-fab0:eth1/2 of link 101 (p3-tor1:eth2/1).
    const order = testWorkOrder({
      action: 'replace_far_transceiver',
      component_name: 'transceiver at p3-fab0:eth1/2',
      footprint: [101],
      footprint_size: 1,
      footprint_links: testWorkOrder().footprint_links.slice(0, 1),
      location: { switch: 'p3-fab0', rack: 'fab-rack-0', row: 'pod 3', port: 'eth1/2', far: null },
    });
    stubServer({ username: 'technician', roles: ['technician'], is_admin: false }, order);
    renderPage();
    const location = await screen.findByTestId('visit-location');
    expect(within(location).getByTestId('location-rack')).toHaveTextContent('fab-rack-0');
    expect(within(location).getByTestId('location-switch')).toHaveTextContent('p3-fab0');
    expect(within(location).getByTestId('location-ports')).toHaveTextContent('eth1/2');
    expect(within(location).queryByTestId('location-far')).toBeNull();
    const [bring] = screen.getAllByTestId('bring-link');
    expect(bring).toHaveTextContent('p3-fab0 eth1/2 → p3-tor1 eth2/1');
    // The stub's transceivers are on side A (p3-tor1): the one here, at p3-fab0, is not recorded.
    expect(bring).toHaveTextContent('Transceiver herenone recorded');
    expect(bring).toHaveTextContent('Transceiver far end100G-SR4, serial SN-101');
    expect(within(bring!).getByTestId('far-rack')).toHaveTextContent('p3-rack1');
  });

  it('says the place is not recorded for an order without a location, and still lists what to bring', async () => {
    stubServer({ username: 'technician', roles: ['technician'], is_admin: false }, testWorkOrder({ location: null }));
    renderPage();
    expect(await screen.findByTestId('visit-location')).toHaveTextContent('Not recorded');
    expect(screen.getAllByTestId('bring-link')[0]).toHaveTextContent('p3-tor1 eth2/1 → p3-fab0 eth1/2');
  });

  it('says a repair is a repair, with no deadline', async () => {
    stubServer({ username: 'technician', roles: ['technician'], is_admin: false });
    renderPage();
    expect(await screen.findByTestId('work-order-kind')).toHaveTextContent(
      'Repair: CorrOpt took its links out of service for corruption',
    );
    expect(screen.queryByTestId('work-order-deadline')).toBeNull();
  });

  it('says preventive work is preventive and shows its deadline, the forecast crossing', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z'), toFake: ['Date'] });
    const order = testWorkOrder({
      action: 'clean_fiber',
      kinds: ['preventive'],
      deadline: '2026-12-01T12:11:00Z',
      ticket_details: [{ ...testWorkOrder().ticket_details[0]!, rule: 'preventive.contamination' }],
    });
    stubServer({ username: 'planner', roles: ['planner'], is_admin: false }, order);
    renderPage();
    expect(await screen.findByTestId('work-order-kind')).toHaveTextContent(
      'Preventive: its links are forecast to fail and stay in service until the visit',
    );
    expect(screen.getByTestId('work-order-deadline')).toHaveTextContent('2026-12-01 12:11 UTC, in 4.0 days');
    vi.useRealTimers();
  });

  it('lets a viewer read the order but not start it', async () => {
    stubServer({ username: 'viewer', roles: ['viewer'], is_admin: false });
    renderPage();
    expect(await screen.findByTestId('read-only-note')).toHaveTextContent('your role can read them');
    expect(screen.queryByRole('button', { name: 'Start work' })).toBeNull();
  });
});
