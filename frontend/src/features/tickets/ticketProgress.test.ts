import { describe, expect, it } from 'vitest';

import { nextStepText } from './ticketProgress';

const OPEN = {
  state: 'open',
  recommended_action: 'reseat_transceiver',
  action_taken: null,
  validation_ends_at: null,
} as const;

describe('nextStepText', () => {
  it('advises the step while nothing is done', () => {
    expect(nextStepText(OPEN)).toBe('Reseat the transceiver');
    expect(nextStepText({ ...OPEN, state: 'in_progress' })).toBe('Reseat the transceiver');
  });

  it('says what was done and until when it is validated, never the advice already followed', () => {
    const validating = {
      ...OPEN,
      state: 'awaiting_validation',
      action_taken: 'reseat_transceiver',
      validation_ends_at: '2026-11-28T13:11:00Z',
    } as const;
    expect(nextStepText(validating)).toBe('Reseated transceiver, validating until 2026-11-28 13:11 UTC');
    expect(nextStepText({ ...validating, validation_ends_at: null })).toBe(
      'Reseated transceiver; validation starts when the link is back in service',
    );
  });

  it('after corruption returned, advises the next step; once resolved, says what fixed it', () => {
    expect(nextStepText({ ...OPEN, recommended_action: 'replace_transceiver' })).toBe('Replace the transceiver');
    expect(nextStepText({ ...OPEN, state: 'resolved', action_taken: 'reseat_transceiver' })).toBe(
      'Reseated transceiver: fixed',
    );
  });
});
