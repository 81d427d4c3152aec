/** @vitest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { DirectionStatusTable } from './DirectionStatusTable';
import { signatureDetail } from './signatureDetail';
import { linkStatus, lossSignature, signatures } from './testTelemetry';

describe('DirectionStatusTable', () => {
  it('shows each direction verdict with the statistics behind it', () => {
    render(
      <DirectionStatusTable status={linkStatus()} signatures={signatures()} switchNames={{ a: 'tor1', z: 'fab1' }} />,
    );
    expect(screen.getByTestId('signature-a_to_z')).toHaveTextContent('corruption-like CV 0.12, r 0.08');
    expect(screen.getByTestId('signature-z_to_a')).toHaveTextContent('insufficient data');
    const header = screen.getByRole('columnheader', { name: 'Loss signature (chart range)' });
    expect(within(header).getByText('Loss signature (chart range)')).toBeInTheDocument();
  });

  it('says nothing was computed while the chart data is loading', () => {
    render(<DirectionStatusTable status={linkStatus()} switchNames={{ a: 'tor1', z: 'fab1' }} />);
    expect(screen.getByTestId('signature-a_to_z')).toHaveTextContent('—');
  });
});

describe('signatureDetail', () => {
  it('describes the larger lossy series, and nothing when neither lost anything', () => {
    const congested = {
      corruption: lossSignature({ lossy_intervals: 8, mean_rate: 1e-7, cv: 0.5, load_correlation: 0.1 }),
      congestion: lossSignature({ lossy_intervals: 9, mean_rate: 1e-4, cv: 2.31, load_correlation: 0.87 }),
      verdict: 'congestion-like',
    };
    expect(signatureDetail(congested)).toBe('CV 2.31, r 0.87');
    expect(signatureDetail({ corruption: lossSignature(), congestion: lossSignature(), verdict: 'clean' })).toBe('');
  });
});
