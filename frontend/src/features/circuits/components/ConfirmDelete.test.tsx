/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import type { CircuitSwitch, Demand } from '../api/types';
import { CircuitSwitchesTable } from './CircuitSwitchesTable';
import { ConfirmDelete } from './ConfirmDelete';
import { DemandsTable } from './DemandsTable';

const DEMAND: Demand = {
  id: 4,
  url: '/api/demands/4/',
  fabric: 1,
  name: 'hot pairs',
  description: '',
  uploaded_by: 'planner',
  created: '2026-11-22T23:00:00Z',
  window_s: 1,
  first_window_start: 0,
  window_count: 8,
  row_count: 120,
  rack_count: 16,
  total_bytes: 5e9,
};

describe('ConfirmDelete', () => {
  it('asks first, naming what goes, and Cancel deletes nothing', () => {
    const onDelete = vi.fn(() => Promise.resolve());
    render(<ConfirmDelete what="demand “hot pairs”" consequence="Its windows go." onDelete={onDelete} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const question = screen.getByRole('group', { name: 'Delete demand “hot pairs”' });
    expect(question.textContent).toContain('Delete demand “hot pairs”? Its windows go.');
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(onDelete).not.toHaveBeenCalled();
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('deletes on confirmation and shows the server’s refusal in one sentence', async () => {
    const sentence =
      "The demand 'hot pairs' is used by schedule #12, still queued or running: wait for it to finish or cancel it, then delete.";
    const onDelete = vi.fn(() => Promise.reject(new ApiError(409, [sentence], { detail: sentence })));
    render(<ConfirmDelete what="demand “hot pairs”" consequence="" onDelete={onDelete} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete demand “hot pairs”' }));
    expect(onDelete).toHaveBeenCalledTimes(1);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Not deleted.');
    expect(alert.textContent).toContain(sentence);
    expect(screen.getByRole('button', { name: 'Delete demand “hot pairs”' })).toHaveProperty('disabled', false);
  });
});

describe('DemandsTable', () => {
  it('offers Delete only to those given the action', () => {
    const { unmount } = render(<DemandsTable demands={[DEMAND]} shown={null} onShow={() => undefined} />);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    unmount();
    const onDelete = vi.fn(() => Promise.resolve());
    render(<DemandsTable demands={[DEMAND]} shown={null} onShow={() => undefined} onDelete={onDelete} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete demand “hot pairs”' }));
    expect(onDelete).toHaveBeenCalledWith(DEMAND);
  });
});

describe('CircuitSwitchesTable', () => {
  const SWITCH: CircuitSwitch = {
    id: 1,
    url: '/api/circuit-switches/1/',
    fabric: 1,
    name: 'ocs-1',
    zone: 'zone-a',
    port_count: 4,
    dark_time_s: 0.01,
    capacity_gbps: 100,
    description: '',
    attachments: [],
    ports_attached: 0,
    ports_available: 0,
    created: '2026-11-22T23:00:00Z',
    updated: '2026-11-22T23:00:00Z',
  };

  it('offers Delete only to those given the action and names the switch in the question', () => {
    const { unmount } = render(<CircuitSwitchesTable switches={[SWITCH]} />);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    unmount();
    const onDelete = vi.fn(() => Promise.resolve());
    render(<CircuitSwitchesTable switches={[SWITCH]} onEdit={() => undefined} onDelete={onDelete} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('group', { name: 'Delete circuit switch “ocs-1”' }).textContent).toContain(
      'Its attachments go with it',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete circuit switch “ocs-1”' }));
    expect(onDelete).toHaveBeenCalledWith(SWITCH);
  });
});
