/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { TicketDetail } from '../api/types';
import { testPreventiveTicket, testTicket } from '../testTicket';
import { RecommendationPanel } from './RecommendationPanel';
import { TicketHeader } from './TicketHeader';

/** The demo ticket after the technician reseated Z's transceiver (the receiving end of a_to_z). */
function reseated(overrides: Partial<TicketDetail> = {}): TicketDetail {
  const base = testTicket({ recommended_action: 'reseat_transceiver' });
  const [step] = base.steps;
  return {
    ...base,
    state: 'awaiting_validation',
    action_taken: 'reseat_transceiver',
    acted_at: '2026-11-27T13:11:00Z',
    validation_started_at: '2026-11-27T13:11:00Z',
    validation_ends_at: '2026-11-28T13:11:00Z',
    recommendation: { ...base.recommendation!, action: 'reseat_transceiver', rule: 'reseat' },
    ends: base.ends.map((end) => (end.side === 'z' ? { ...end, last_reseated_at: '2026-11-27T13:11:00Z' } : end)),
    steps: [
      {
        ...step!,
        recommended_action: 'reseat_transceiver',
        rule: 'reseat',
        evidence: { local_end: 'z' },
        action_taken: 'reseat_transceiver',
        followed: true,
        technician: 'technician',
        acted_at: '2026-11-27T13:11:00Z',
      },
    ],
    ...overrides,
  };
}

describe('TicketHeader', () => {
  it('before the repair: what to do where, and what to bring', () => {
    render(<TicketHeader ticket={testTicket()} />);
    expect(screen.getByTestId('ticket-header-todo')).toHaveTextContent(
      'Replace the transceiver at p0-tor4:eth2/3 (end A, rack p0-rack4)',
    );
    expect(screen.getByTestId('ticket-header-bring')).toHaveTextContent('Cable: 12 m, MMF');
    expect(screen.queryByTestId('ticket-header-done')).toBeNull();
  });

  it('a preventive ticket: the header says the step’s one instruction, naming the end to start at', () => {
    const ticket = testPreventiveTicket();
    render(
      <MemoryRouter>
        <TicketHeader ticket={ticket} />
        <RecommendationPanel recommendation={ticket.recommendation!} ends={ticket.ends} />
      </MemoryRouter>,
    );
    // Trial 30: the header said "Clean the fiber (both ends)" above the step's "Clean the connectors, … first".
    expect(screen.getByTestId('ticket-header-todo')).toHaveTextContent(
      /^Clean the connectors, p0-tor4:eth2\/3 \(end A\) first$/,
    );
    expect(screen.getByTestId('recommended-action')).toHaveTextContent(
      screen.getByTestId('ticket-header-todo').textContent!,
    );
  });

  it('after a reseat: what was done and what the ticket waits for, never the advice already followed', () => {
    render(<TicketHeader ticket={reseated()} />);
    expect(screen.getByTestId('ticket-header-done')).toHaveTextContent(
      'Done: Reseated transceiver at p0-fab2:eth1/5 (end Z, rack not recorded), 2026-11-27 13:11 UTC',
    );
    expect(screen.queryByTestId('ticket-header-todo')).toBeNull();
    expect(screen.queryByTestId('ticket-header-bring')).toBeNull();
    expect(screen.getByTestId('ticket-header-reseated')).toHaveTextContent(
      'Last reseated (end Z): 2026-11-27 13:11 UTC',
    );
    expect(screen.getByTestId('ticket-header-validation')).toHaveTextContent(
      'Validating until 2026-11-28 13:11 UTC, 24 h after the repair.',
    );
    expect(screen.getByTestId('ticket-header-if-it-fails')).toHaveTextContent(/If corruption returns, .+ next step/);
  });

  it('when corruption returned: says after what, then the next step to do', () => {
    const before = reseated();
    const [done] = before.steps;
    const ticket: TicketDetail = {
      ...before,
      state: 'open',
      action_taken: null,
      acted_at: null,
      validation_ends_at: null,
      recommended_action: 'replace_transceiver',
      step_count: 2,
      recommendation: {
        ...before.recommendation!,
        step: 2,
        action: 'replace_transceiver',
        rule: 'escalation.reseat_transceiver',
      },
      steps: [
        { ...done!, outcome: 'recurred' },
        {
          ...done!,
          number: 2,
          recommended_action: 'replace_transceiver',
          rule: 'escalation.reseat_transceiver',
          action_taken: '',
          followed: null,
          technician: null,
          acted_at: null,
        },
      ],
    };
    render(<TicketHeader ticket={ticket} />);
    expect(screen.getByTestId('ticket-header-returned')).toHaveTextContent(
      'Corruption returned after: Reseated transceiver at p0-fab2:eth1/5 (end Z, rack not recorded), 2026-11-27 13:11 UTC. Next step:',
    );
    expect(screen.getByTestId('ticket-header-todo')).toHaveTextContent('Replace the transceiver at p0-fab2:eth1/5');
    expect(screen.queryByTestId('ticket-header-done')).toBeNull();
    expect(screen.queryByTestId('ticket-header-if-it-fails')).toBeNull();
  });
});
