/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import type { Demand } from '../api/types';
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
