import { describe, expect, it } from 'vitest';

import type { WebhookDelivery } from './types';
import { deliveriesSettled, isDueSoon } from './webhooks';

const NOW = Date.parse('2026-11-27T13:16:12Z');

function delivery(overrides: Partial<WebhookDelivery>): WebhookDelivery {
  return {
    state: 'pending',
    sending_since: null,
    next_attempt_at: '2026-11-27T13:16:12Z',
    ...overrides,
  } as WebhookDelivery;
}

describe('isDueSoon: the delivery log reads again each second while a row is about to change', () => {
  it('a test just sent, or one being sent now, is due soon', () => {
    expect(isDueSoon(delivery({}), NOW)).toBe(true);
    expect(
      isDueSoon(delivery({ sending_since: '2026-11-27T13:16:12Z', next_attempt_at: '2026-11-27T13:16:52Z' }), NOW),
    ).toBe(true);
  });

  it('a retry minutes away or a finished delivery is not', () => {
    expect(isDueSoon(delivery({ next_attempt_at: '2026-11-27T13:20:00Z' }), NOW)).toBe(false);
    expect(isDueSoon(delivery({ state: 'succeeded', next_attempt_at: null }), NOW)).toBe(false);
  });
});

describe('deliveriesSettled: the endpoints are read again when a delivery gets its answer', () => {
  const pending = delivery({ id: 7 });
  it('a pending delivery that succeeded or failed has settled, as has a new one answered already', () => {
    expect(deliveriesSettled([pending], [delivery({ id: 7, state: 'succeeded' })])).toBe(true);
    expect(deliveriesSettled([pending], [delivery({ id: 7, state: 'failed' })])).toBe(true);
    expect(deliveriesSettled([], [delivery({ id: 8, state: 'succeeded' })])).toBe(true);
  });

  it('one still pending or one that had already settled has not', () => {
    expect(deliveriesSettled([pending], [pending])).toBe(false);
    expect(deliveriesSettled([], [delivery({ id: 8 })])).toBe(false);
    const done = delivery({ id: 9, state: 'succeeded' });
    expect(deliveriesSettled([done, pending], [done, pending])).toBe(false);
  });
});
