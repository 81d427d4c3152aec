/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { FabricCapacity } from '../api/types';
import { CapacityBars } from './CapacityBars';

const capacity: FabricCapacity = {
  fabric: 1,
  capacity_constraint: 0.75,
  summary: { tors: 3, below_constraint: 1, min_fraction: 0.5 },
  tors: [
    {
      switch: 1,
      name: 'p0-tor0',
      pod: 0,
      available_paths: 4,
      total_paths: 4,
      fraction: 1,
      constraint: 0.75,
      below_constraint: false,
    },
    {
      switch: 2,
      name: 'p0-tor1',
      pod: 0,
      available_paths: 2,
      total_paths: 4,
      fraction: 0.5,
      constraint: 0.75,
      below_constraint: true,
    },
    {
      switch: 3,
      name: 'p1-tor0',
      pod: 1,
      available_paths: 3,
      total_paths: 4,
      fraction: 0.75,
      constraint: 0.75,
      below_constraint: false,
    },
  ],
};

describe('CapacityBars', () => {
  it('draws one bar per ToR and flags the ones below constraint', () => {
    render(<CapacityBars capacity={capacity} width={640} />);
    const bars = screen.getAllByTestId('capacity-bar');
    expect(bars).toHaveLength(3);
    expect(
      bars
        .filter((bar) => bar.getAttribute('data-below-constraint') === 'true')
        .map((bar) => bar.getAttribute('data-tor')),
    ).toEqual(['p0-tor1']);
  });

  it('states the summary, axis units, legend and constraint', () => {
    render(<CapacityBars capacity={capacity} width={640} />);
    expect(screen.getByTestId('capacity-summary')).toHaveTextContent(
      '3 ToRs, 1 below constraint (0.75), minimum fraction 0.50',
    );
    expect(screen.getByRole('img', { name: /Fraction of up-paths available per ToR/ })).toBeInTheDocument();
    expect(screen.getByText('Fraction of paths available (0–1)')).toBeInTheDocument();
    expect(screen.getByText('Below constraint')).toBeInTheDocument();
    expect(screen.getByText('constraint 0.75')).toBeInTheDocument();
    expect(screen.getByText('ToRs below constraint (1)')).toBeInTheDocument();
  });

  it('says so when a fabric has no ToRs', () => {
    render(
      <CapacityBars
        capacity={{ ...capacity, tors: [], summary: { tors: 0, below_constraint: 0, min_fraction: null } }}
        width={640}
      />,
    );
    expect(screen.queryAllByTestId('capacity-bar')).toHaveLength(0);
    expect(screen.getByText(/no ToR switches/)).toBeInTheDocument();
  });
});
