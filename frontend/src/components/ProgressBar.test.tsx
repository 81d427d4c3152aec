/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ProgressBar } from './ProgressBar';
import { progressPercent } from './progressPercent';

describe('ProgressBar', () => {
  it('clamps and rounds the fraction to a percentage', () => {
    expect(progressPercent(0.456)).toBe(46);
    expect(progressPercent(1.4)).toBe(100);
    expect(progressPercent(-1)).toBe(0);
    expect(progressPercent(Number.NaN)).toBe(0);
  });

  it('exposes the value to assistive technology', () => {
    render(<ProgressBar value={0.5} label="Job 7 progress" />);
    const bar = screen.getByRole('progressbar', { name: 'Job 7 progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(bar).toHaveTextContent('50%');
  });
});
