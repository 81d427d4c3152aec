import { describe, expect, it } from 'vitest';

import { ticketChartRange } from './ticketRange';

const NOW = new Date('2026-11-22T20:00:00Z');

describe('the ticket page chart range', () => {
  it('is the last day when the corruption started within it', () => {
    const range = ticketChartRange('2026-11-22T10:00:00Z', NOW);
    expect(range).toEqual({ from: new Date('2026-11-21T20:00:00Z'), to: NOW });
  });

  it('reaches back to six hours before an older onset', () => {
    expect(ticketChartRange('2026-11-19T08:00:00Z', NOW).from).toEqual(new Date('2026-11-19T02:00:00Z'));
  });

  it('shows at most the last 30 days, and the last day without an onset', () => {
    expect(ticketChartRange('2026-08-01T00:00:00Z', NOW).from).toEqual(new Date('2026-10-23T20:00:00Z'));
    expect(ticketChartRange(null, NOW).from).toEqual(new Date('2026-11-21T20:00:00Z'));
  });
});
