/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { testTicket } from '../testTicket';
import { RecommendationPanel } from './RecommendationPanel';

describe('RecommendationPanel', () => {
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
    expect(screen.getByTestId('evidence-rate')).toHaveTextContent('8.5e-6');
    const decisive = screen
      .getAllByTestId('evidence-optics-row')
      .filter((row) => row.getAttribute('data-decisive') === 'true');
    expect(decisive).toHaveLength(1);
    expect(decisive[0]).toHaveTextContent('Tx at A (far end)');
    expect(decisive[0]).toHaveTextContent('-13.6 dBm');
    expect(decisive[0]).toHaveTextContent('-8.4 dBm (catalog)');
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
});
