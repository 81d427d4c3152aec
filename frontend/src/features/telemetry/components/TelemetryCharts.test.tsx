/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { LossChart } from './LossChart';
import { PowerChart } from './PowerChart';
import { RangeControls } from './RangeControls';
import { SideReadings } from './SideReadings';
import { forecastAnswer, hourlyTelemetry, linkStatus, rawTelemetry } from './testTelemetry';

const SIDE_NAMES = { a: 'p0-tor0 eth2/1', z: 'p0-fab0 eth1/1' };

describe('PowerChart', () => {
  it('draws the four power lines with a legend, threshold lines, and marks the dark sample', () => {
    render(<PowerChart telemetry={rawTelemetry()} sideNames={SIDE_NAMES} onZoom={() => {}} width={720} />);
    const chart = screen.getByTestId('power-chart');
    const legend = within(chart).getByRole('list', { name: 'Optical power legend' });
    expect(within(legend).getByText('A Rx, average of lanes (p0-tor0 eth2/1)')).toBeInTheDocument();
    expect(within(legend).getByText('Z Tx, average of lanes (p0-fab0 eth1/1)')).toBeInTheDocument();
    expect(within(legend).getByText('Rx lower limit')).toBeInTheDocument();

    const lines = chart.querySelectorAll('[data-testid="power-line"]');
    expect([...lines].map((line) => line.getAttribute('data-series'))).toEqual(['a-rx', 'a-tx', 'z-rx', 'z-tx']);
    for (const line of lines) expect(line.getAttribute('d')).toMatch(/^M.+L/);
    expect(chart.querySelectorAll('[data-testid="power-threshold"]')).toHaveLength(2);
    const marks = within(chart).getAllByTestId('no-light-mark');
    expect(marks).toHaveLength(1);
    expect(marks[0]).toHaveTextContent(/No light on Z Rx/);
    expect(screen.getByRole('img', { name: /Tx and Rx optical power of both ends in dBm/ })).toBeInTheDocument();
    expect(screen.getByText('Optical power (dBm)')).toBeInTheDocument();
    expect(screen.getByText('Time (UTC)')).toBeInTheDocument();
    // d3-brush has laid its overlay into the chart for drag-to-zoom.
    expect(chart.querySelector('[data-testid="time-brush"] rect.overlay')).not.toBeNull();
  });

  it("reads the nearest time and each line's value under the pointer, and with the arrow keys", () => {
    render(<PowerChart telemetry={rawTelemetry()} sideNames={SIDE_NAMES} onZoom={() => {}} width={720} />);
    const chart = screen.getByTestId('power-chart');
    const readout = screen.getByTestId('power-chart-readout');
    expect(readout).toHaveTextContent('Point at the chart');
    const svg = within(chart).getByRole('img', { name: /optical power/ });
    // jsdom lays nothing out: the SVG's left edge is at 0, so clientX is the plot's x.
    fireEvent.pointerMove(svg, { clientX: 100 });
    expect(readout).toHaveTextContent(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(readout).toHaveTextContent(/A Rx, average of lanes \(p0-tor0 eth2\/1\): −?\d+\.\d dBm/);
    expect(chart.querySelector('[data-testid="power-chart-readout-line"]')).not.toBeNull();
    const first = readout.textContent;
    fireEvent.keyDown(svg, { key: 'ArrowRight' });
    expect(readout.textContent).not.toBe(first);
    fireEvent.pointerLeave(svg);
    expect(readout).toHaveTextContent('Point at the chart');
  });

  it('draws min–max bands at hour resolution and says what they are', () => {
    render(<PowerChart telemetry={hourlyTelemetry()} sideNames={SIDE_NAMES} onZoom={() => {}} width={720} />);
    const chart = screen.getByTestId('power-chart');
    expect(chart).toHaveAttribute('data-resolution', 'hour');
    expect(chart.querySelectorAll('path.power-band').length).toBeGreaterThanOrEqual(2);
    expect(within(chart).getByText('Hourly min–max (line: hourly average)')).toBeInTheDocument();
  });

  it('says so when the range holds no reading', () => {
    const empty = rawTelemetry();
    for (const side of ['a', 'z'] as const) {
      empty.sides[side] = { time: [], input_power_dbm: [], output_power_dbm: [], rx_no_light: [], tx_no_light: [] };
    }
    render(<PowerChart telemetry={empty} sideNames={SIDE_NAMES} onZoom={() => {}} width={720} />);
    expect(screen.getByTestId('power-empty')).toHaveTextContent('No optical readings in this range.');
  });
});

describe('PowerChart with a forecast', () => {
  it('draws the trend to the limit, the crossing and its interval, with legend entries', () => {
    render(
      <PowerChart
        telemetry={rawTelemetry()}
        sideNames={SIDE_NAMES}
        onZoom={() => {}}
        forecast={forecastAnswer()}
        width={720}
      />,
    );
    const chart = screen.getByTestId('power-chart');
    const forecast = within(chart).getByTestId('power-forecast');
    expect(forecast).toHaveAttribute('data-series', 'z-rx');
    expect(within(forecast).getByTestId('power-forecast-trend').getAttribute('d')).toMatch(/^M.+L/);
    expect(within(forecast).getByTestId('power-forecast-crossing')).toBeInTheDocument();
    const band = within(chart).getByTestId('power-forecast-band');
    expect(Number(band.getAttribute('width'))).toBeGreaterThan(1);
    const legend = within(chart).getByRole('list', { name: 'Optical power legend' });
    expect(within(legend).getByTestId('power-legend-forecast')).toHaveTextContent('Forecast: Z Rx lane 2 to its limit');
    expect(within(legend).getByTestId('power-legend-forecast-interval')).toHaveTextContent(
      'Forecast crossing, earliest to latest',
    );
    // The trend starts at a dot of the forecast lane's own level (the lines average the lanes).
    expect(within(forecast).getByTestId('power-forecast-lane')).toHaveTextContent(
      'Z Rx lane 2 when forecast: −8.0 dBm',
    );
    expect(within(legend).getByTestId('power-legend-forecast-lane')).toHaveTextContent(
      'Z Rx lane 2 when forecast: −8.0 dBm (where its trend starts)',
    );
    // The Tx limit the Rx forecast does not cross is faint; the Rx limit it crosses is not.
    expect(
      [...chart.querySelectorAll('[data-testid="power-threshold"]')].map((line) => line.getAttribute('stroke-opacity')),
    ).toEqual([null, '0.4']);
    // Its label is lighter in weight but not faded (faded text was unreadable on the dark theme).
    expect(
      [...chart.querySelectorAll('text.threshold-label')].map((label) => [
        label.classList.contains('threshold-label-muted'),
        (label as SVGTextElement).style.opacity,
      ]),
    ).toEqual([
      [false, ''],
      [true, ''],
    ]);
    // The limits' labels sit at the left end, away from the trend and crossing at the right.
    for (const label of chart.querySelectorAll('text.threshold-label')) {
      expect(label).toHaveAttribute('text-anchor', 'start');
      expect(Number(label.getAttribute('x'))).toBeLessThan(
        Number(within(forecast).getByTestId('power-forecast-lane').getAttribute('cx')),
      );
    }
    expect(screen.getByRole('img', { name: /crossing 2026-11-23 14:00 UTC/ })).toBeInTheDocument();
  });

  it('draws no forecast marks for a link without one', () => {
    render(
      <PowerChart
        telemetry={rawTelemetry()}
        sideNames={SIDE_NAMES}
        onZoom={() => {}}
        forecast={{ ...forecastAnswer(), forecast: null }}
        width={720}
      />,
    );
    const chart = screen.getByTestId('power-chart');
    expect(within(chart).queryByTestId('power-forecast')).toBeNull();
    expect(within(chart).queryByTestId('power-forecast-band')).toBeNull();
    expect(within(chart).queryByTestId('power-legend-forecast')).toBeNull();
  });
});

describe('LossChart', () => {
  it('draws four loss lines on a log axis with both thresholds, and explains the zero floor', () => {
    render(<LossChart telemetry={rawTelemetry()} onZoom={() => {}} width={720} />);
    const chart = screen.getByTestId('loss-chart');
    const lines = chart.querySelectorAll('[data-testid="loss-line"]');
    expect(lines).toHaveLength(4);
    // Each line is broken once at the reported gap: two "M" moves.
    for (const line of lines) expect(line.getAttribute('d')!.match(/M/g)).toHaveLength(2);
    expect(chart.querySelector('[data-testid="loss-threshold-action"]')).not.toBeNull();
    expect(chart.querySelector('[data-testid="loss-threshold-report"]')).not.toBeNull();
    expect(within(chart).getByText('action 1.0 × 10⁻⁶')).toBeInTheDocument();
    expect(within(chart).getByTestId('loss-legend-zero')).toHaveTextContent(
      'Rate 0: drawn on the bottom line at 10⁻¹²',
    );
    expect(chart.querySelectorAll('[data-clamped="true"]').length).toBeGreaterThan(0);
    expect(within(chart).getByText('Loss rate (fraction, log; 0 at floor)')).toBeInTheDocument();
    expect(within(chart).getByText(/A break in a line: no rate/)).toBeInTheDocument();
  });

  it('keeps its axes and thresholds and says why when the range holds no rate', () => {
    // Hourly telemetry of a link whose counters gave no rate: optical readings only.
    render(<LossChart telemetry={hourlyTelemetry()} onZoom={() => {}} width={720} />);
    const chart = screen.getByTestId('loss-chart');
    expect(chart).toHaveAttribute('data-resolution', 'hour');
    expect(screen.getByTestId('loss-empty')).toHaveTextContent('No loss rates in this range');
    expect(within(chart).queryByTestId('loss-legend-zero')).toBeNull();
    expect(within(chart).getByText('Loss rate (fraction, log)')).toBeInTheDocument();
    expect(within(chart).getByText('Time (UTC)')).toBeInTheDocument();
    expect(chart.querySelector('[data-testid="loss-threshold-report"]')).not.toBeNull();
    expect(chart.querySelector('[data-testid="time-brush"] rect.overlay')).not.toBeNull();
  });
});

describe('RangeControls', () => {
  it('marks the 24 h preset by default and asks for a new range from a button', () => {
    const onChange = vi.fn();
    const shown = { from: '2026-11-21T12:00:00Z', to: '2026-11-22T12:00:00Z', resolution: 'raw' as const };
    render(<RangeControls range={null} shown={shown} onChange={onChange} busy={false} />);
    const group = screen.getByRole('group', { name: 'Time range' });
    expect(within(group).getByRole('button', { name: '24 h' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(group).getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(within(group).getByRole('button', { name: '6 h' }));
    const range = onChange.mock.calls[0]![0] as { from: Date; to: Date };
    expect(range.to.getTime() - range.from.getTime()).toBe(6 * 3_600_000);
    fireEvent.click(within(group).getByRole('button', { name: 'Zoom out' }));
    const wider = onChange.mock.calls[1]![0] as { from: Date; to: Date };
    expect(wider.to.getTime() - wider.from.getTime()).toBeGreaterThan(24 * 3_600_000);
    expect(screen.getByTestId('range-readout')).toHaveTextContent('2026-11-21 12:00 UTC to 2026-11-22 12:00 UTC');
  });
});

describe('SideReadings', () => {
  it('shows the newest readings with their class, and each limit with its source', () => {
    const status = linkStatus();
    render(<SideReadings sideLabel="Z" endName="p0-fab0 eth1/1" status={status.sides.z} />);
    const side = screen.getByRole('region', { name: 'Z end p0-fab0 eth1/1' });
    const rx = within(side).getByRole('row', { name: /Rx power/ });
    expect(rx).toHaveTextContent('−11.8 dBm, lowest lane −12.4 dBm');
    expect(rx).toHaveTextContent('low');
    expect(within(side).getByTestId('threshold-input_power_lower_dbm')).toHaveTextContent('−11.0 dBmmanual');
    expect(within(side).getByTestId('threshold-output_power_lower_dbm')).toHaveTextContent('device');
    expect(within(side).getByTestId('threshold-input_power_upper_dbm')).toHaveTextContent('catalog');
    expect(within(side).getByRole('row', { name: /Temperature/ })).toHaveTextContent('41.2 °C');
  });

  it('says "no light" for a dark receiver rather than a number', () => {
    const status = linkStatus().sides.a;
    render(
      <SideReadings
        sideLabel="A"
        endName="p0-tor0 eth2/1"
        status={{ ...status, input_power_dbm: null, rx_no_light: true }}
      />,
    );
    expect(screen.getByRole('row', { name: /Rx power/ })).toHaveTextContent('no lightno light');
  });
});
