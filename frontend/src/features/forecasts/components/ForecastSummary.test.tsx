/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { linkForecast, NOW } from '../testForecast';
import { ForecastSummary } from './ForecastSummary';

describe('ForecastSummary', () => {
  it('says under the power chart what the chart draws of the forecast', () => {
    render(
      <ForecastSummary
        answer={{ link: 3, horizon_days: 7, min_confidence: 0.8, forecast: linkForecast() }}
        now={NOW}
      />,
    );
    expect(screen.getByTestId('power-forecast-text')).toHaveTextContent(
      'Z end Rx lane 3: -8.9 dBm, falling 0.40 dB/day, limit -10.0 dBm (catalog). It reaches its limit 2026-11-30 12:48 UTC',
    );
  });

  it('says nothing for a link without a forecast', () => {
    const { container } = render(
      <ForecastSummary answer={{ link: 3, horizon_days: 7, min_confidence: 0.8, forecast: null }} now={NOW} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
