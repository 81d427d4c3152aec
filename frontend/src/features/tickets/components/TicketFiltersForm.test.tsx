/** @vitest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { queueFromSearchParams } from '../ticketQueue';
import { TicketFiltersForm } from './TicketFiltersForm';

const FABRICS = [{ id: 1, url: '/api/fabrics/1/', name: 'demo-fb' }];

describe('TicketFiltersForm', () => {
  it('filters on mine and a pod (applied when the field is left)', () => {
    const onChange = vi.fn();
    const filters = queueFromSearchParams(new URLSearchParams());
    render(<TicketFiltersForm filters={filters} fabrics={FABRICS} onChange={onChange} />);

    fireEvent.change(screen.getByLabelText('Assignee'), { target: { value: 'mine' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...filters, assignee: 'me' });

    const pod = screen.getByLabelText('Pod');
    fireEvent.change(pod, { target: { value: '0' } });
    expect(onChange).toHaveBeenCalledTimes(1);
    fireEvent.blur(pod);
    expect(onChange).toHaveBeenLastCalledWith({ ...filters, pod: 0 });

    // The queue is sorted by its column headers, not a Sort field.
    expect(screen.queryByLabelText('Sort')).toBeNull();
  });

  it('asks for a username before filtering on someone else, and unchecks states', () => {
    const onChange = vi.fn();
    const filters = queueFromSearchParams(new URLSearchParams());
    render(<TicketFiltersForm filters={filters} fabrics={FABRICS} onChange={onChange} />);

    fireEvent.change(screen.getByLabelText('Assignee'), { target: { value: 'user' } });
    expect(onChange).not.toHaveBeenCalled();
    const username = screen.getByLabelText('Username');
    fireEvent.change(username, { target: { value: ' alice ' } });
    fireEvent.blur(username);
    expect(onChange).toHaveBeenLastCalledWith({ ...filters, assignee: 'alice' });

    fireEvent.click(screen.getByRole('checkbox', { name: 'awaiting validation' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...filters, states: ['open', 'reopened', 'in_progress'] });
  });
});
