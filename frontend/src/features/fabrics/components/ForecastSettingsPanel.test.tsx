/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Fabric } from '../api/types';
import { ForecastSettingsPanel } from './ForecastSettingsPanel';

const FABRIC: Fabric = {
  id: 4,
  url: 'http://test/api/fabrics/4/',
  name: 'demo-fb',
  description: '',
  tiers: ['tor', 'fabric'],
  capacity_constraint: 0.75,
  telemetry_window_s: 300,
  corruption_action_threshold: 1e-6,
  corruption_report_threshold: 1e-8,
  telemetry_min_packets: 1000,
  auto_restore: false,
  forecast_horizon_days: 7,
  forecast_min_confidence: 0.8,
  auto_preventive_tickets: false,
  switch_count: 12,
  link_count: 32,
  created: '2026-11-20T08:00:00Z',
  updated: '2026-11-20T08:00:00Z',
};

/** The network boundary: PATCH /api/fabrics/4/ answers `status` with `body`; the writes are kept (not the CSRF read). */
function stubPatch(status: number, body: unknown) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://test');
      const method = init.method ?? 'GET';
      if (method !== 'GET') sent.push({ method, path: url.pathname, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return sent;
}

function renderPanel(canEdit: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ForecastSettingsPanel fabric={FABRIC} canEdit={canEdit} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ForecastSettingsPanel', () => {
  it('shows the settings read-only to roles that may not change them', () => {
    renderPanel(false);
    const facts = screen.getByTestId('forecast-settings-facts');
    expect(facts).toHaveTextContent('Horizon7 days');
    expect(facts).toHaveTextContent('Least confidence80%');
    expect(facts).toHaveTextContent('Automatic preventive ticketsoff');
    expect(screen.queryByRole('button', { name: 'Save forecast settings' })).toBeNull();
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });

  it('sends the three settings and says they are saved', async () => {
    const sent = stubPatch(200, { ...FABRIC, forecast_horizon_days: 3, auto_preventive_tickets: true });
    renderPanel(true);
    fireEvent.change(screen.getByLabelText('Horizon (days, 1–60)'), { target: { value: '3' } });
    fireEvent.click(screen.getByLabelText('Open a preventive ticket by itself for each link that becomes at risk'));
    fireEvent.click(screen.getByRole('button', { name: 'Save forecast settings' }));
    expect(await screen.findByTestId('forecast-settings-saved')).toHaveTextContent('Saved.');
    expect(sent).toEqual([
      {
        method: 'PATCH',
        path: '/api/fabrics/4/',
        body: { forecast_horizon_days: 3, forecast_min_confidence: 0.8, auto_preventive_tickets: true },
      },
    ]);
  });

  it('puts each problem of a 400 under its field', async () => {
    stubPatch(400, {
      forecast_horizon_days: ['Ensure this value is less than or equal to 60.'],
      forecast_min_confidence: ['Ensure this value is greater than or equal to 0.5.'],
    });
    renderPanel(true);
    const horizon = screen.getByLabelText('Horizon (days, 1–60)');
    const confidence = screen.getByLabelText('Least confidence (fraction, 0.5–0.99)');
    fireEvent.change(horizon, { target: { value: '90' } });
    fireEvent.change(confidence, { target: { value: '0.2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save forecast settings' }));
    await waitFor(() => expect(horizon).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByTestId('problem-forecast_horizon_days')).toHaveTextContent(
      'Ensure this value is less than or equal to 60.',
    );
    expect(horizon).toHaveAccessibleDescription('Ensure this value is less than or equal to 60.');
    expect(confidence).toHaveAccessibleDescription('Ensure this value is greater than or equal to 0.5.');
    expect(screen.queryByTestId('forecast-settings-saved')).toBeNull();
  });

  it('says at the field when a value is not a number, and sends nothing', () => {
    const sent = stubPatch(200, FABRIC);
    renderPanel(true);
    fireEvent.change(screen.getByLabelText('Horizon (days, 1–60)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save forecast settings' }));
    expect(screen.getByTestId('problem-forecast_horizon_days')).toHaveTextContent('Enter a whole number of days.');
    expect(sent).toEqual([]);
  });

  it('shows a refusal that names no field above the button', async () => {
    stubPatch(403, { detail: 'Only operators and admins may change auto_preventive_tickets.' });
    renderPanel(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save forecast settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only operators and admins may change auto_preventive_tickets.',
    );
  });
});
