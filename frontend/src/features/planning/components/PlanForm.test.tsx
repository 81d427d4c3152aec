/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PlanForm } from './PlanForm';

afterEach(cleanup);

describe('PlanForm', () => {
  it('says the name limit before submit and never cuts a pasted name', () => {
    const onSubmit = vi.fn();
    render(
      <PlanForm
        fabrics={[]}
        initialFabric={null}
        catalog={[]}
        catalogLoading={false}
        submitting={false}
        onSubmit={onSubmit}
      />,
    );
    const name = screen.getByRole('textbox', { name: /Plan name/ });
    expect(name).toHaveAccessibleDescription('Up to 100 characters.');

    const pasted = 'p'.repeat(120);
    fireEvent.change(name, { target: { value: pasted } });
    expect(name).toHaveValue(pasted); // all of it: nothing dropped silently
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('120 characters: up to 100, 20 too many.');

    fireEvent.click(screen.getByRole('button', { name: 'Run plan' }));
    expect(onSubmit).not.toHaveBeenCalled();
    // Said at the field, not again in a box above the button.
    expect(name).toHaveAccessibleDescription('120 characters: up to 100, 20 too many.');
    expect(screen.queryByText('Check the form.')).toBeNull();
  });

  it('marks each wrong field with its problem, every one at once, and clears it once fixed', () => {
    const onSubmit = vi.fn();
    render(
      <PlanForm
        fabrics={[]}
        initialFabric={null}
        catalog={[]}
        catalogLoading={false}
        submitting={false}
        onSubmit={onSubmit}
      />,
    );
    const hops = screen.getByRole('textbox', { name: 'Maximum hops' });
    const step = screen.getByRole('textbox', { name: 'Every (m)' });
    fireEvent.change(hops, { target: { value: 'abc' } });
    fireEvent.change(step, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run plan' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(hops).toHaveAttribute('aria-invalid', 'true');
    expect(hops).toHaveAccessibleDescription(
      'empty: 2 × (tiers − 1) Maximum hops must be a whole number from 1 to 16 (empty: 2 × (tiers − 1)).',
    );
    expect(step).toHaveAttribute('aria-invalid', 'true');
    expect(step).toHaveAccessibleDescription('Curve step must be a length above 0 m.');

    fireEvent.change(hops, { target: { value: '4' } });
    expect(hops).not.toHaveAttribute('aria-invalid');
    expect(step).toHaveAttribute('aria-invalid', 'true');
  });
});
