/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { ScheduleForm } from './ScheduleForm';

afterEach(cleanup);

describe('ScheduleForm', () => {
  it('says each problem at its field, all at once, and the server refusal of a param at that param', () => {
    const onSubmit = vi.fn();
    const { rerender } = render(
      <ScheduleForm demands={[]} switches={[]} submitting={false} error={null} onSubmit={onSubmit} />,
    );
    const seed = screen.getByRole('textbox', { name: 'Seed' });
    fireEvent.change(seed, { target: { value: '-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run schedule' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('combobox', { name: 'Demand' })).toHaveAccessibleDescription(
      'Choose a demand (upload one first if the list is empty).',
    );
    expect(screen.getByRole('combobox', { name: 'Circuit switch or zone' })).toHaveAttribute('aria-invalid', 'true');
    expect(seed).toHaveAccessibleDescription('The seed must be a whole number ≥ 0 (got “-1”).');
    expect(screen.queryByText('Check the form.')).toBeNull();

    const refused = new ApiError(400, [], {
      errors: [{ section: 'params', field: 'period_s', message: 'must be at least the demand window (1 s)' }],
    });
    rerender(<ScheduleForm demands={[]} switches={[]} submitting={false} error={refused} onSubmit={onSubmit} />);
    const period = screen.getByRole('textbox', { name: 'Period (s)' });
    expect(period).toHaveAttribute('aria-invalid', 'true');
    expect(period).toHaveAccessibleDescription('must be at least the demand window (1 s)');
    expect(document.body.textContent).not.toContain('params.period_s');
  });
});
