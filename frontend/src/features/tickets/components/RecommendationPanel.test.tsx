/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { testPreventiveTicket, testTicket } from '../testTicket';
import { TicketEnds } from './TicketEnds';
import { RecommendationPanel } from './RecommendationPanel';

describe('RecommendationPanel', () => {
  it('with the ends, names the end to work at instead of "the far-end transceiver"', () => {
    const ticket = testTicket();
    render(
      <MemoryRouter>
        <RecommendationPanel recommendation={ticket.recommendation!} ends={ticket.ends} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('recommended-action')).toHaveTextContent(
      'Replace the transceiver at p0-tor4:eth2/3 (end A, rack p0-rack4)',
    );
    // The rates' key in the page's own notation (trial 30: "1e-6" beside "8.5 × 10⁻⁶").
    expect(screen.getByText(/^Loss rates are fractions of packets/)).toHaveTextContent(
      'Loss rates are fractions of packets (1.0 × 10⁻⁶ = one in a million).',
    );
    expect(screen.getByTestId('recommendation')).not.toHaveTextContent(/\de-\d/);
  });

  it('shows the action, the rule that fired and the reading it fired on against its limit', () => {
    const recommendation = testTicket().recommendation!;
    render(
      <MemoryRouter>
        <RecommendationPanel recommendation={recommendation} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('recommended-action')).toHaveTextContent('Replace the far-end transceiver');
    expect(screen.getByTestId('recommendation-rule')).toHaveTextContent(
      'The far end transmits at or below its minimum power',
    );
    expect(screen.getByTestId('evidence-rate')).toHaveTextContent('8.5 × 10⁻⁶');
    const decisive = screen
      .getAllByTestId('evidence-optics-row')
      .filter((row) => row.getAttribute('data-decisive') === 'true');
    expect(decisive).toHaveLength(1);
    expect(decisive[0]).toHaveTextContent('Tx at A (far end)');
    expect(decisive[0]).toHaveTextContent('−13.6 dBm');
    expect(decisive[0]).toHaveTextContent('−8.4 dBm (catalog)');
    expect(decisive[0]).toHaveTextContent('low');
    expect(screen.getByTestId('evidence-history')).toHaveTextContent('no earlier step');
  });

  it('marks an escalation and names what failed before', () => {
    const base = testTicket().recommendation!;
    const recommendation = {
      ...base,
      action: 'reseat_transceiver' as const,
      rule: 'escalation.clean_fiber',
      evidence: {
        ...base.evidence,
        history: [
          {
            action_recommended: 'clean_fiber',
            action_taken: 'clean_fiber',
            time: '2026-11-20T10:00:00Z',
            outcome: 'recurred' as const,
          },
        ],
        failed_actions: ['clean_fiber'],
      },
    };
    render(
      <MemoryRouter>
        <RecommendationPanel recommendation={recommendation} />
      </MemoryRouter>,
    );
    expect(screen.getByText('escalated')).toBeInTheDocument();
    expect(screen.getByTestId('evidence-history')).toHaveTextContent(
      'Not repeated because corruption returned after it: cleaned fiber',
    );
    expect(screen.getByTestId('evidence-history')).toHaveClass('decisive');
  });

  it('a preventive step: the forecast’s action at its end as headline, the rule once, the forecast as evidence', () => {
    const ticket = testPreventiveTicket();
    render(
      <MemoryRouter>
        <RecommendationPanel recommendation={ticket.recommendation!} />
        <TicketEnds ends={ticket.ends} receivingEnd="a" receivingLabel="end to act on" />
      </MemoryRouter>,
    );
    // The headline and the text under it name the same action and end.
    expect(screen.getByTestId('recommended-action')).toHaveTextContent(
      'Clean the connectors, p0-tor4:eth2/3 (end A) first',
    );
    expect(screen.getByText(/^Clean the connectors, p0-tor4:eth2\/3 \(end A\) first: the Rx power falls/)).toBeTruthy();
    const rule = screen.getByTestId('recommendation-rule');
    expect(rule).toHaveTextContent(
      'Rule: Forecast: the Rx power falls at one end only while the far end’s Tx holds (contamination)',
    );
    expect(rule).not.toHaveTextContent('preventive.contamination'); // words, the code only on hover
    expect(rule).toHaveAttribute('title', 'rule preventive.contamination');
    expect(screen.getByTestId('evidence-forecast-crossing')).toHaveTextContent('2026-11-30 12:11 UTC');
    expect(screen.getByTestId('evidence-forecast-interval')).toHaveTextContent(
      '2026-11-29 06:00 UTC and 2026-12-02 18:00 UTC',
    );
    expect(screen.getByTestId('evidence-forecast-confidence')).toHaveTextContent('91%');
    expect(screen.getByTestId('evidence-forecast-reading')).toHaveTextContent(
      'Rx of lane 3 at A (p0-tor4:eth2/3): −8.9 dBm, falling 0.42 dB a day',
    );
    expect(screen.getByTestId('evidence-forecast-limit')).toHaveTextContent('−10.3 dBm (catalog)');
    // None of a repair's corruption furniture, nor "receives the errors".
    expect(screen.queryByTestId('evidence-rate')).toBeNull();
    expect(screen.queryByText(/Other corrupting links/)).toBeNull();
    expect(screen.queryByText(/receives the errors/)).toBeNull();
    expect(screen.getByTestId('ticket-end-a')).toHaveTextContent('end to act on');
  });

  it('a repair step that kept the forecast’s repair first says why, with the corruption evidence', () => {
    const base = testTicket().recommendation!;
    render(
      <MemoryRouter>
        <RecommendationPanel
          recommendation={{
            ...base,
            step: 2,
            action: 'replace_transceiver',
            rule: 'forecast_cause.decaying_transmitter',
          }}
        />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('recommended-action')).toHaveTextContent('Replace the transceiver');
    expect(screen.getByTestId('recommendation-rule')).toHaveTextContent(
      'Forecast: the Tx power falls while the laser bias rises (a decaying transmitter), before the link corrupted: ' +
        'the forecast’s repair stays first (the corruption rule read less)',
    );
    expect(screen.getByTestId('recommendation-rule')).not.toHaveTextContent('forecast_cause');
    expect(screen.getByTestId('evidence-rate')).toHaveTextContent('8.5 × 10⁻⁶');
  });
});
