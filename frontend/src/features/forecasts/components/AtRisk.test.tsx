/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';

import { ApiError } from '@/lib/api-client';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import type { PreventiveTicket } from '../api/types';
import type { AtRiskFilters } from '../atRisk';
import { atRiskRow, inDays, NOW } from '../testForecast';
import { AtRiskFiltersForm } from './AtRiskFiltersForm';
import { AtRiskResults } from './AtRiskResults';
import { PreventiveTicketButton } from './PreventiveTicketButton';

function renderResults(props: Partial<Parameters<typeof AtRiskResults>[0]> = {}) {
  return render(
    <MemoryRouter>
      <AtRiskResults total={0} rows={[]} horizonDays={7} causes={[]} now={NOW} {...props} />
    </MemoryRouter>,
  );
}

describe('AtRiskResults', () => {
  it('lists the rows in the server’s order, each with its crossing, cause, confidence, reading, racks and action', () => {
    const transmitter = atRiskRow(
      'p0-tor1 p0-fab0',
      {
        crossing_at: inDays(1.5),
        earliest_at: inDays(1),
        latest_at: inDays(2.25),
        confidence: 0.93,
        cause: 'decaying_transmitter',
        cause_label: 'decaying transmitter',
        side: 'a',
        lane: 0,
        level_dbm: -9.4,
        slope_db_per_day: -0.31,
        cause_side: 'z',
        recommended_action: 'replace_transceiver',
        recommended_action_label: 'Replace the transceiver at p0-fab0:eth2 (end Z)',
      },
      ['', 'r90'],
    );
    const contamination = atRiskRow('p0-tor0 p0-fab0');
    renderResults({ total: 2, rows: [transmitter, contamination] });
    expect(screen.getByTestId('at-risk-count')).toHaveTextContent(
      '2 links are forecast to cross a limit within 7 days, soonest first.',
    );
    const rows = screen.getAllByTestId('at-risk-row');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByRole('link', { name: 'p0-tor1 eth1 ↔ p0-fab0 eth2' })).toHaveAttribute(
      'href',
      `/links/${transmitter.link.id}`,
    );
    expect(first.getByTestId('at-risk-crossing')).toHaveTextContent(
      'crosses in 1.5 days (1.0–2.3), 2026-11-28 20:00 UTC',
    );
    expect(first.getByTestId('at-risk-cause')).toHaveTextContent('decaying transmitter');
    expect(first.getByTestId('at-risk-confidence')).toHaveTextContent('93%');
    expect(first.getByTestId('at-risk-reading')).toHaveTextContent(
      'A end Rx lane 1: −9.4 dBm, falling 0.31 dB/day, limit −10.0 dBm (catalog)',
    );
    // A switch without a rack reads "—".
    expect(first.getByTestId('at-risk-racks')).toHaveTextContent('A — Z r90');
    expect(first.getByTestId('at-risk-action')).toHaveTextContent('Replace the transceiver at p0-fab0:eth2 (end Z)');

    const second = within(rows[1]!);
    expect(second.getByRole('link', { name: 'p0-tor0 eth1 ↔ p0-fab0 eth2' })).toBeInTheDocument();
    expect(second.getByTestId('at-risk-crossing')).toHaveTextContent('crosses in 3.2 days (2.1–5.0)');
    expect(second.getByTestId('at-risk-age')).toHaveTextContent('forecast made 0 min ago');
    expect(second.queryByTestId('at-risk-stale')).toBeNull();
    expect(second.getByTestId('at-risk-racks')).toHaveTextContent('A r01 Z r90');
    expect(second.getByTestId('at-risk-action')).toHaveTextContent(
      'Clean the connectors, p0-fab0:eth1/1 (end Z) first',
    );
  });

  it('shows each row’s forecast age, and warns when the optics stopped over 12 hours ago', () => {
    // trial27: telemetry stopped 2 days ago; one link was at its limit then, one was to cross a day later.
    const made = inDays(-2);
    const atLimit = atRiskRow('p0-tor2 p0-fab1', { computed_at: made, crossing_at: made, earliest_at: made });
    const overdue = atRiskRow('p0-tor3 p0-fab1', { computed_at: made, crossing_at: inDays(-1) });
    const fresh = atRiskRow('p0-tor4 p0-fab1', { computed_at: inDays(-2 / 24) });
    renderResults({ total: 3, rows: [atLimit, overdue, fresh] });
    const [first, second, third] = screen.getAllByTestId('at-risk-row').map((row) => within(row));
    expect(first!.getByTestId('at-risk-crossing')).toHaveTextContent('at its limit now');
    expect(first!.getByTestId('at-risk-age')).toHaveTextContent('forecast made 2.0 days ago');
    expect(first!.getByRole('note')).toHaveTextContent(
      'no optics since 2026-11-25 08:00 UTC: the forecast may be out of date',
    );
    expect(second!.getByTestId('at-risk-crossing')).toHaveTextContent(
      'overdue by 24 h (forecast for 2026-11-26 08:00 UTC)',
    );
    expect(second!.getByTestId('at-risk-stale')).toBeInTheDocument();
    expect(third!.getByTestId('at-risk-age')).toHaveTextContent('forecast made 2 h ago');
    expect(third!.queryByRole('note')).toBeNull();
  });

  it('says in words that no link is at risk within the horizon', () => {
    renderResults({ total: 0, horizonDays: 7 });
    expect(screen.getByTestId('at-risk-empty')).toHaveTextContent(
      'No link is forecast to cross its limit within 7 days.',
    );
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('AtRiskFiltersForm', () => {
  function renderForm(filters: AtRiskFilters, fabricHorizonDays = 7) {
    const onChange = vi.fn();
    render(<AtRiskFiltersForm filters={filters} fabricHorizonDays={fabricHorizonDays} onChange={onChange} />);
    return onChange;
  }

  it('ticks causes into the filter (any of them) and unticks them', () => {
    const onChange = renderForm({ fabric: 1, causes: ['bent_fiber'] });
    const form = screen.getByRole('form', { name: 'Filter links at risk' });
    expect(within(form).getByRole('checkbox', { name: 'bent or damaged fiber' })).toBeChecked();
    fireEvent.click(within(form).getByRole('checkbox', { name: 'contamination' }));
    expect(onChange).toHaveBeenLastCalledWith({ fabric: 1, causes: ['bent_fiber', 'contamination'] });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'bent or damaged fiber' }));
    expect(onChange).toHaveBeenLastCalledWith({ fabric: 1, causes: [] });
  });

  it('offers horizons up to the fabric’s, which is the default and sends no horizon', () => {
    const onChange = renderForm({ fabric: 1, causes: [] }, 7);
    const select = screen.getByRole('combobox', { name: /Crossing within/ });
    expect(select).toHaveValue('7');
    expect([...select.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      '1 day',
      '2 days',
      '3 days',
      '5 days',
      '7 days (the fabric’s horizon)',
    ]);
    fireEvent.change(select, { target: { value: '3' } });
    expect(onChange).toHaveBeenLastCalledWith({ fabric: 1, causes: [], horizonDays: 3 });
    fireEvent.change(select, { target: { value: '7' } });
    expect(onChange).toHaveBeenLastCalledWith({ fabric: 1, causes: [], horizonDays: undefined });
  });
});

describe('preventive tickets on the At risk page', () => {
  it('puts the ticket control under each row’s action when the user may open one', () => {
    const rows = [atRiskRow('p0-tor0 p0-fab0'), atRiskRow('p0-tor1 p0-fab0')];
    renderResults({
      total: 2,
      rows,
      ticketControl: (linkId) => <button type="button">ticket for {linkId}</button>,
    });
    const shown = screen.getAllByTestId('at-risk-row');
    expect(within(within(shown[1]!).getByTestId('at-risk-action')).getByRole('button')).toHaveTextContent(
      `ticket for ${rows[1]!.link.id}`,
    );
  });

  it('shows the link’s unresolved ticket, linked, instead of the control, to every role', () => {
    const handled = atRiskRow('p0-tor0 p0-fab0', {}, ['r01', 'r90'], { id: 6, kind: 'preventive', state: 'open' });
    const repaired = atRiskRow('p0-tor1 p0-fab0', {}, ['r01', 'r90'], {
      id: 9,
      kind: 'repair',
      state: 'in_progress',
    });
    const rows = [handled, repaired, atRiskRow('p0-tor2 p0-fab0')];
    const { unmount } = renderResults({
      total: 3,
      rows,
      ticketControl: (linkId) => <button type="button">ticket for {linkId}</button>,
    });
    const shown = screen.getAllByTestId('at-risk-row');
    const first = within(within(shown[0]!).getByTestId('at-risk-action'));
    expect(first.getByTestId('at-risk-ticket')).toHaveTextContent('Preventive ticket #6 (open)');
    expect(first.getByRole('link', { name: 'Preventive ticket #6' })).toHaveAttribute('href', '/tickets/6');
    expect(first.queryByRole('button')).toBeNull();
    expect(within(shown[1]!).getByTestId('at-risk-ticket')).toHaveTextContent('Repair ticket #9 (in progress)');
    expect(within(shown[2]!).getByRole('button')).toHaveTextContent(`ticket for ${rows[2]!.link.id}`);
    unmount();
    // A viewer or planner (no control) sees which links are already handled, too.
    renderResults({ total: 3, rows });
    expect(screen.getAllByTestId('at-risk-ticket').map((node) => node.textContent)).toEqual([
      'Preventive ticket #6 (open)',
      'Repair ticket #9 (in progress)',
    ]);
  });

  it('has no ticket control for a user who may not open one', () => {
    renderResults({ total: 1, rows: [atRiskRow('p0-tor0 p0-fab0')] });
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('opens on a click, says so while the server answers, then links to the ticket', () => {
    const onOpen = vi.fn();
    const { rerender } = render(
      <MemoryRouter>
        <PreventiveTicketButton onOpen={onOpen} pending={false} opened={undefined} error={null} />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open preventive ticket' }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    rerender(
      <MemoryRouter>
        <PreventiveTicketButton onOpen={onOpen} pending opened={undefined} error={null} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('button', { name: 'Opening…' })).toBeDisabled();
    rerender(
      <MemoryRouter>
        <PreventiveTicketButton onOpen={onOpen} pending={false} opened={{ id: 42 } as PreventiveTicket} error={null} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('preventive-opened')).toHaveTextContent(
      'Preventive ticket #42 opened; the link stays in service.',
    );
    expect(screen.getByRole('link', { name: 'Preventive ticket #42' })).toHaveAttribute('href', '/tickets/42');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows every reason the server gives when it cannot open one', () => {
    const error = new ApiError(400, ['link: already has an unresolved ticket (#7)'], {});
    render(
      <MemoryRouter>
        <PreventiveTicketButton onOpen={() => {}} pending={false} opened={undefined} error={error} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Could not open a preventive ticket.');
    expect(screen.getByRole('alert')).toHaveTextContent('link: already has an unresolved ticket (#7)');
    expect(screen.getByRole('button', { name: 'Open preventive ticket' })).toBeEnabled();
  });
});
