import { describe, expect, it } from 'vitest';

import {
  chartedForecast,
  crossingText,
  emptyText,
  forecastAgeText,
  forecastSentence,
  readingText,
  slopeText,
  staleForecastText,
} from './forecastText';
import { inDays, linkForecast, NOW } from './testForecast';

describe('crossingText', () => {
  it('says the days to the crossing, its interval and its date in the app’s time format', () => {
    expect(crossingText(linkForecast(), NOW)).toBe('crosses in 3.2 days (2.1–5.0), 2026-11-30 12:48 UTC');
  });

  it('says the crossing may never come when the gentlest slope does not fall', () => {
    expect(crossingText(linkForecast({ latest_at: null }), NOW)).toBe(
      'crosses in 3.2 days (2.1 or later, may never), 2026-11-30 12:48 UTC',
    );
  });

  it('says "now" for a reading already at its limit when the forecast was made', () => {
    expect(crossingText(linkForecast({ crossing_at: NOW.toISOString(), earliest_at: NOW.toISOString() }), NOW)).toBe(
      'at its limit now',
    );
    // Made two days ago, at its limit then: still "now" (the age and its warning say how old).
    const made = inDays(-2);
    expect(crossingText(linkForecast({ computed_at: made, crossing_at: made, earliest_at: made }), NOW)).toBe(
      'at its limit now',
    );
  });

  it('says a forecast crossing time that has passed is overdue, by how long, never "0.0 days"', () => {
    const text = crossingText(linkForecast({ computed_at: inDays(-2), crossing_at: inDays(-1.2) }), NOW);
    expect(text).toBe('overdue by 29 h (forecast for 2026-11-26 03:12 UTC)');
    expect(crossingText(linkForecast({ computed_at: inDays(-4), crossing_at: inDays(-2.5) }), NOW)).toBe(
      'overdue by 2.5 days (forecast for 2026-11-24 20:00 UTC)',
    );
  });
});

describe('forecastAgeText and staleForecastText', () => {
  it('say how old the forecast is, and warn past 12 hours that the optics stopped', () => {
    expect(forecastAgeText(inDays(-2 / 24), NOW)).toBe('forecast made 2 h ago');
    expect(forecastAgeText(inDays(-40 / 1440), NOW)).toBe('forecast made 40 min ago');
    expect(staleForecastText(inDays(-12 / 24), NOW)).toBeNull();
    expect(forecastAgeText(inDays(-2.1), NOW)).toBe('forecast made 2.1 days ago');
    expect(staleForecastText(inDays(-2.1), NOW)).toBe(
      'no optics since 2026-11-25 05:36 UTC: the forecast may be out of date',
    );
  });
});

describe('readingText', () => {
  it('names the end, quantity and lane, the level, the slope and the limit with its provenance', () => {
    // Lanes count from 1 as modules number them: the API's lane 2 is lane 3.
    expect(readingText(linkForecast())).toBe(
      'Z end Rx lane 3: −8.9 dBm, falling 0.40 dB/day, limit −10.0 dBm (catalog)',
    );
    expect(readingText(linkForecast({ side: 'a', quantity: 'tx', lane: 0, limit_provenance: 'manual' }))).toBe(
      'A end Tx lane 1: −8.9 dBm, falling 0.40 dB/day, limit −10.0 dBm (manual)',
    );
  });

  it('reads a dark lane as dark: it has no level nor slope', () => {
    expect(readingText(linkForecast({ level_dbm: null, slope_db_per_day: null }))).toBe(
      'Z end Rx lane 3: dark, limit −10.0 dBm (catalog)',
    );
  });

  it('reads a slope that rounds to zero as flat, and a positive one as rising', () => {
    expect(slopeText(-0.001)).toBe('flat');
    expect(slopeText(0.25)).toBe('rising 0.25 dB/day');
  });
});

describe('forecastSentence', () => {
  it('says the chart’s forecast in words: reading, crossing with its interval, confidence, horizon, cause, action', () => {
    expect(forecastSentence(linkForecast(), 7, NOW)).toBe(
      'Forecast made 2026-11-27 08:00 UTC. Z end Rx lane 3: −8.9 dBm, falling 0.40 dB/day, limit −10.0 dBm (catalog). ' +
        'It reaches its limit 2026-11-30 12:48 UTC (between 2026-11-29 10:24 UTC and 2026-12-02 08:00 UTC); ' +
        '87% confidence, at risk within the 7-day horizon. Probable cause: contamination. ' +
        'Recommended: Clean the connectors, p0-fab0:eth1/1 (end Z) first.',
    );
  });

  it('says when a reported link is not at risk, and when the crossing may never come', () => {
    const sentence = forecastSentence(linkForecast({ at_risk: false, latest_at: null, confidence: 0.4 }), 7, NOW);
    expect(sentence).toContain('and never); 40% confidence, not at risk within the 7-day horizon.');
  });

  it('says when a forecast crossing has passed since the forecast was made', () => {
    const sentence = forecastSentence(linkForecast({ computed_at: inDays(-2), crossing_at: inDays(-1.2) }), 7, NOW);
    expect(sentence).toContain('It was forecast to reach its limit 2026-11-26 03:12 UTC, 29 h ago;');
  });
});

describe('emptyText', () => {
  it('says no link crosses within the horizon, naming the causes filtered on', () => {
    expect(emptyText(7, [])).toBe('No link is forecast to cross its limit within 7 days.');
    expect(emptyText(1, ['contamination', 'bent_fiber'])).toBe(
      'No link is forecast to cross its limit within 1 day (cause: contamination or bent or damaged fiber).',
    );
  });
});

describe('chartedForecast', () => {
  it('draws the forecast of a link that has not failed, none of a failed one', () => {
    const answer = { link: 3, horizon_days: 7, min_confidence: 0.8, forecast: linkForecast(), failed: null };
    expect(chartedForecast(answer)).toBe(answer);
    expect(
      chartedForecast({
        ...answer,
        failed: { state: 'disabled', since: null, ticket: { id: 4, kind: 'repair', state: 'open' } },
      }),
    ).toBeUndefined();
    expect(chartedForecast(undefined)).toBeUndefined();
  });
});
