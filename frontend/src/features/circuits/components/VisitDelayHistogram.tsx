import { scaleBand, scaleLinear } from 'd3';
import { useMemo } from 'react';

import type { VisitDelayModel } from '../visitDelay';

/** The chosen algorithm first, then the baselines (as the comparison chart's blues, then muted). */
const SERIES_COLOURS = ['#1f5fa8', '#8fb3dc', '#c8402f', '#6a9a3a', '#8a6bb8'];

interface VisitDelayHistogramProps {
  model: VisitDelayModel;
  periodS: number;
  width: number;
}

/** How many pairs with demand waited how long at most for a circuit: bars per powers-of-two bin,
 * one per algorithm when a comparison ran; bin labels in slots and, below, in seconds. */
export function VisitDelayHistogram({ model, periodS, width }: VisitDelayHistogramProps) {
  const chart = useMemo(() => {
    const area = { width, height: 250, left: 62, right: width - 10, top: 10, bottom: 190 };
    const x = scaleBand<number>()
      .domain(model.bins.map((_, i) => i))
      .range([area.left, area.right])
      .paddingInner(0.2)
      .paddingOuter(0.1);
    const inner = scaleBand<string>()
      .domain(model.series.map((s) => s.algorithm))
      .range([0, x.bandwidth()])
      .padding(0.05);
    const y = scaleLinear()
      .domain([0, Math.max(model.maxPairs, 1)])
      .nice()
      .range([area.bottom, area.top]);
    const yTicks = y.ticks(5).filter((value) => Number.isInteger(value));
    // Labels thin out when the bins are narrower than a label.
    const every = Math.max(1, Math.ceil(44 / Math.max(x.step(), 1)));
    return { area, x, inner, y, yTicks, every };
  }, [model, width]);
  const { area, x, inner, y } = chart;
  const period = `1 slot = ${Number(periodS.toPrecision(4))} s`;

  return (
    <figure className="visit-delay-histogram" data-testid="visit-delay-histogram">
      <figcaption>Circuit visit delay per pair ({period})</figcaption>
      {model.series.length > 1 ? (
        <ul className="legend" aria-label="Visit-delay histogram legend">
          {model.series.map((s, i) => (
            <li key={s.algorithm}>
              <span
                className="swatch"
                style={{ background: SERIES_COLOURS[i % SERIES_COLOURS.length] }}
                aria-hidden="true"
              />
              {s.label}
              {s.chosen ? ' (this schedule)' : ''}
            </li>
          ))}
        </ul>
      ) : null}
      <svg
        width={area.width}
        height={area.height}
        role="img"
        aria-label={`Pairs per longest wait for a circuit, ${period}: ${model.series
          .map(
            (s) =>
              `${s.label}: ${model.bins.map((bin, i) => `${s.pairs[i]} waited ${bin.slotsLabel} slots`).join(', ')}`,
          )
          .join('; ')}`}
      >
        <g className="axis axis-y">
          {chart.yTicks.map((value) => (
            <g key={value} transform={`translate(0,${y(value)})`}>
              <line className="gridline" x1={area.left} x2={area.right} />
              <text x={area.left - 8} dy="0.32em" textAnchor="end">
                {value}
              </text>
            </g>
          ))}
          <line x1={area.left} x2={area.left} y1={area.top} y2={area.bottom} />
          <text
            className="axis-title"
            transform={`translate(12,${(area.top + area.bottom) / 2}) rotate(-90)`}
            textAnchor="middle"
          >
            Pairs with demand
          </text>
        </g>
        {model.series.map((s, seriesIndex) => (
          <g key={s.algorithm} fill={SERIES_COLOURS[seriesIndex % SERIES_COLOURS.length]}>
            {model.bins.map((bin, i) => {
              const pairs = s.pairs[i] ?? 0;
              return (
                <rect
                  key={i}
                  data-testid="visit-delay-bar"
                  data-algorithm={s.algorithm}
                  data-slots={bin.slotsLabel}
                  data-pairs={pairs}
                  x={(x(i) ?? 0) + (inner(s.algorithm) ?? 0)}
                  y={y(pairs)}
                  width={inner.bandwidth()}
                  height={Math.max(0, area.bottom - y(pairs))}
                >
                  <title>{`${s.label}: ${pairs} pair${pairs === 1 ? '' : 's'} waited ${bin.slotsLabel} slot${
                    bin.maxSlots === 1 ? '' : 's'
                  } (${bin.secondsLabel}) at most`}</title>
                </rect>
              );
            })}
          </g>
        ))}
        <g className="axis axis-x">
          <line x1={area.left} x2={area.right} y1={area.bottom} y2={area.bottom} />
          {model.bins.map((bin, i) =>
            i % chart.every === 0 ? (
              <g key={i} transform={`translate(${(x(i) ?? 0) + x.bandwidth() / 2},${area.bottom})`}>
                <line y2={5} />
                <text y={17} textAnchor="middle">
                  {bin.slotsLabel}
                </text>
                <text y={31} textAnchor="middle" className="muted-tick">
                  {bin.secondsLabel}
                </text>
              </g>
            ) : null,
          )}
          <text className="axis-title" x={(area.left + area.right) / 2} y={area.bottom + 52} textAnchor="middle">
            Longest wait for a circuit (slots; seconds below)
          </text>
        </g>
      </svg>
    </figure>
  );
}
