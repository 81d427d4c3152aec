/** @vitest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { testSimulationResult } from '../testSimulation';
import { RepairAccuracyTable } from './RepairAccuracyTable';

describe('RepairAccuracyTable', () => {
  it("shows CorrOpt's penalty per constraint at each accuracy with the change against the first", () => {
    const result = testSimulationResult();
    result.runs[3]!.corropt_penalty_seconds = 1.4; // 0.75 at accuracy 0.8: 30% less than at 0.5
    render(<RepairAccuracyTable result={result} />);
    const table = screen.getByRole('table', { name: 'CorrOpt’s penalty·s by repair accuracy' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Constraint', 'accuracy 0.5', 'accuracy 0.8 (vs 0.5)']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['50.0%00 (—)', '75.0%21.4 (−30%)']);
  });
});
