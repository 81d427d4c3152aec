/** @vitest-environment jsdom */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError, parseErrorBody } from '@/lib/api-client';

import { SimulationForm } from './SimulationForm';

const FABRICS = [
  { id: 4, url: '/api/fabrics/4/', name: 'demo-fb' },
  { id: 5, url: '/api/fabrics/5/', name: 'lab' },
];

describe('SimulationForm', () => {
  it('lists every problem and sends nothing', () => {
    const onSubmit = vi.fn();
    render(<SimulationForm fabrics={FABRICS} submitting={false} onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Repair accuracies'), { target: { value: '0.5, 2' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'CorrOpt' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fast checker' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Switch-local' }));
    fireEvent.click(screen.getByRole('button', { name: 'Run simulation' }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Choose a fabric.');
    expect(alert).toHaveTextContent('Repair accuracies: “2” is not a fraction in [0, 1].');
    expect(alert).toHaveTextContent('Choose at least one policy.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends an uploaded trace as its text', async () => {
    const onSubmit = vi.fn();
    render(<SimulationForm fabrics={FABRICS} submitting={false} onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Fabric'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Capacity constraints'), { target: { value: '0.75' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Upload CSV' }));
    const text = 'time_s,link,loss_rate\n0,t0:up0,0.001\n';
    const file = new File([text], 'one.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText(/Trace file/), { target: { files: [file] } });
    await waitFor(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Run simulation' }));
      expect(onSubmit).toHaveBeenCalled();
    });
    const [fabric, params] = onSubmit.mock.calls[0]!;
    expect(fabric).toBe(5);
    expect(params.constraints).toEqual([0.75]);
    expect(params.trace).toEqual({ source: 'uploaded', name: 'one.csv', csv: text });
  });

  it('reads the server’s line-numbered problems as the API client words them', () => {
    const body = {
      errors: [{ section: 'params', field: 'trace.csv', line: 3, message: "line 3: unknown link 't9:up0'" }],
    };
    expect(new ApiError(400, parseErrorBody(body), body).messages).toEqual([
      "params.trace.csv: line 3: unknown link 't9:up0'",
    ]);
  });
});
