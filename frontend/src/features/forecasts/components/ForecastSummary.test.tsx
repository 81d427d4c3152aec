/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { LinkForecastAnswer } from '../api/types';
import { inDays, linkForecast, NOW } from '../testForecast';
import type { NewestSideReadings } from '../forecastText';
import { ForecastSummary } from './ForecastSummary';

const LIT: NewestSideReadings = {
  input_power_dbm: -3.1,
  input_power_min_channel_dbm: -3.4,
  output_power_dbm: -1.0,
  output_power_min_channel_dbm: -1.2,
  rx_no_light: false,
  tx_no_light: false,
};

// Demo link 76 of trial 30: the Newest readings table says A Tx −13.7 dBm, lowest lane −14.0 dBm,
// while its forecast was made at −13.2 dBm.
const A_TX_PAST_LIMIT: NewestSideReadings = { ...LIT, output_power_dbm: -13.7, output_power_min_channel_dbm: -14.0 };

function renderSummary(answer: Partial<LinkForecastAnswer>, newest = { a: A_TX_PAST_LIMIT, z: LIT }) {
  return render(
    <MemoryRouter>
      <ForecastSummary
        answer={{ link: 3, horizon_days: 7, min_confidence: 0.8, forecast: linkForecast(), failed: null, ...answer }}
        newest={newest}
        now={NOW}
      />
    </MemoryRouter>,
  );
}

// Demo link 76 of trial 29: its A end's Tx 5 dB under its limit when forecast, out of service with a repair ticket.
const pastItsLimit = linkForecast({
  at_risk: false,
  side: 'a',
  quantity: 'tx',
  lane: 0,
  level_dbm: -13.2,
  slope_db_per_day: 0,
  limit_dbm: -8.4,
  crossing_at: NOW.toISOString(),
  earliest_at: NOW.toISOString(),
  cause: 'unknown',
  cause_label: 'unclear',
  recommended_action: 'inspect',
  recommended_action_label: 'Inspect the optics and the fiber at both ends',
});

describe('ForecastSummary', () => {
  it('says under the power chart what the chart draws of the forecast', () => {
    renderSummary({});
    expect(screen.getByTestId('power-forecast-text')).toHaveTextContent(
      'Z end Rx lane 3: −8.9 dBm, falling 0.40 dB/day, limit −10.0 dBm (catalog). It reaches its limit 2026-11-30 12:48 UTC',
    );
  });

  it('says nothing for a link without a forecast', () => {
    const { container } = renderSummary({ forecast: null });
    expect(container).toBeEmptyDOMElement();
  });

  it('says a failed link failed, its newest reading past the limit and the ticket that has it, with no forecast advice', () => {
    renderSummary({
      forecast: pastItsLimit,
      failed: { state: 'disabled', since: inDays(-0.25), ticket: { id: 12, kind: 'repair', state: 'open' } },
    });
    const text = screen.getByTestId('power-forecast-text');
    expect(text).toHaveTextContent(
      'Failed: out of service for corruption since 2026-11-27 02:00 UTC (6 h ago). ' +
        // The Newest readings table's numbers, not the forecast's older −13.2 dBm.
        'A end Tx reads −13.7 dBm, lowest lane −14.0 dBm, past its limit −8.4 dBm (catalog). ' +
        'Not a forecast matter any more: it belongs to its repair ticket #12 (open).',
    );
    expect(screen.getByRole('link', { name: '#12' })).toHaveAttribute('href', '/tickets/12');
    // None of the forecast's sentence: no "not at risk", no "at its limit now", no advice.
    for (const words of ['at risk', 'at its limit now', 'flat', 'Probable cause', 'Recommended', 'Inspect']) {
      expect(text).not.toHaveTextContent(words);
    }
  });

  it('says who keeps a failed link without a ticket, and leaves out a reading still above its limit', () => {
    renderSummary({ failed: { state: 'corrupting', since: null, ticket: null } }, { a: LIT, z: LIT });
    expect(screen.getByTestId('power-forecast-text')).toHaveTextContent(
      /^Failed: corrupting in service\. Not a forecast matter any more\. CorrOpt keeps it in service for capacity; no ticket has it yet\.$/,
    );
  });

  it('says a failed link whose reading went dark is dark, and that a ticket without one has it', () => {
    renderSummary(
      { forecast: pastItsLimit, failed: { state: 'disabled', since: null, ticket: null } },
      { a: { ...LIT, output_power_dbm: null, output_power_min_channel_dbm: null, tx_no_light: true }, z: LIT },
    );
    expect(screen.getByTestId('power-forecast-text')).toHaveTextContent(
      /^Failed: out of service for corruption\. A end Tx is dark\. Not a forecast matter any more\. No ticket has it yet\.$/,
    );
  });
});
