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
    expect(screen.getByText('Name: at most 100 characters.')).toBeInTheDocument();
  });
});
