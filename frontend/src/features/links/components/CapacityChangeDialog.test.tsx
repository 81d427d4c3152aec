/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError, parseErrorBody } from '@/lib/api-client';

import type { GuardPreview, GuardTor } from '../api/types';
import { CapacityChangeDialog, type CapacityChangeDialogProps, TORS_SHOWN } from './CapacityChangeDialog';

const TOR5: GuardTor = {
  switch: 3,
  name: 'p1-tor5',
  paths_before: 16,
  paths_after: 12,
  required_paths: 12,
  design_paths: 16,
  constraint: 0.75,
};
const TOR6: GuardTor = { ...TOR5, switch: 4, name: 'p1-tor6', paths_before: 12, paths_after: 8 };

const SAFE: GuardPreview = {
  verdict: 'safe',
  detail: 'Safe: every ToR keeps its constraint; p1-tor5 keeps 12 of the 12 up-paths it needs.',
  links: [12],
  affected_tors: [TOR5],
  blocking_tors: [],
};

const UNSAFE: GuardPreview = {
  verdict: 'unsafe',
  detail: 'Refused: p1-tor6 would fall to 8 of 16 up-paths, under the 12 its constraint (0.75) requires.',
  links: [13],
  affected_tors: [TOR6, TOR5],
  blocking_tors: [TOR6],
};

function renderDialog(overrides: Partial<CapacityChangeDialogProps> = {}) {
  const props: CapacityChangeDialogProps = {
    title: 'Disable p1-tor6 eth2/1 ↔ p1-fab0 eth1/6',
    confirmLabel: 'Disable link',
    pendingLabel: 'Disabling…',
    preview: { isPending: false, error: null, data: SAFE },
    onPreview: vi.fn(),
    apply: { isPending: false, error: null },
    onConfirm: vi.fn(),
    onClose: vi.fn(),
    reasonLabel: 'Reason',
    canOverride: false,
    ...overrides,
  };
  render(<CapacityChangeDialog {...props} />);
  return props;
}

function rowOf(name: string) {
  return screen.getAllByTestId('guard-tor').find((row) => row.getAttribute('data-tor') === name)!;
}

describe('CapacityChangeDialog', () => {
  it('sends the dry run on opening, then shows each ToR before → after against its constraint, and a safe verdict', () => {
    const props = renderDialog();
    expect(props.onPreview).toHaveBeenCalledTimes(1);
    const dialog = screen.getByRole('dialog', { name: 'Disable p1-tor6 eth2/1 ↔ p1-fab0 eth1/6' });
    expect(within(dialog).getByTestId('guard-verdict')).toHaveTextContent(
      `Safe: the guard allows this change${SAFE.detail}`,
    );
    expect(within(dialog).getByText('1 link changes.')).toBeInTheDocument();
    const table = within(dialog).getByRole('table', { name: 'ToRs whose up-paths change' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['ToR', 'Up-paths before → after', 'Needs (constraint)', 'Outcome']);
    expect(rowOf('p1-tor5')).toHaveTextContent('p1-tor516 → 12 of 1612 (0.75)keeps its constraint');
    expect(rowOf('p1-tor5')).toHaveAttribute('data-falls-under', 'false');

    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  dirty connector  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable link' }));
    expect(props.onConfirm).toHaveBeenCalledWith({ reason: 'dirty connector', override: false });
  });

  it('waits for the preview before anything can be confirmed', () => {
    renderDialog({ preview: { isPending: true, error: null, data: undefined } });
    expect(screen.getByText('Checking every ToR’s capacity…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable link' })).toBeDisabled();
  });

  it('shows an unsafe verdict with the ToR that falls under, and an operator cannot confirm or override', () => {
    const props = renderDialog({ preview: { isPending: false, error: null, data: UNSAFE } });
    expect(screen.getByTestId('guard-verdict')).toHaveTextContent(
      `Unsafe: the guard refuses this change${UNSAFE.detail}`,
    );
    expect(rowOf('p1-tor6')).toHaveTextContent('12 → 8');
    expect(rowOf('p1-tor6')).toHaveTextContent('falls under its constraint, 4 paths short');
    expect(rowOf('p1-tor6')).toHaveAttribute('data-falls-under', 'true');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByTestId('guard-no-override')).toHaveTextContent('Only an admin may override it, with a reason.');
    const confirm = screen.getByRole('button', { name: 'Disable link' });
    expect(confirm).toBeDisabled();
    fireEvent.click(confirm);
    expect(props.onConfirm).not.toHaveBeenCalled();
  });

  it('lets an admin override an unsafe change only with a reason, said at the field', () => {
    const props = renderDialog({ preview: { isPending: false, error: null, data: UNSAFE }, canOverride: true });
    expect(screen.getByRole('button', { name: 'Disable link' })).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox', { name: /Override capacity/ }));
    const confirm = screen.getByRole('button', { name: 'Disable link anyway' });
    fireEvent.click(confirm);
    expect(props.onConfirm).not.toHaveBeenCalled();
    const reason = screen.getByLabelText('Reason');
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(
      'An override needs a reason: say why this ToR may fall under its constraint.',
    );

    fireEvent.change(reason, { target: { value: 'fibre cut, traffic already drained' } });
    expect(screen.queryByText(/An override needs a reason/)).toBeNull();
    fireEvent.click(confirm);
    expect(props.onConfirm).toHaveBeenCalledWith({ reason: 'fibre cut, traffic already drained', override: true });
  });

  it('shows a refusal (409) with the sentence and the blocking ToRs, and checks again on request', () => {
    const body = { detail: UNSAFE.detail, blocking_tors: [TOR6], links: [13] };
    const props = renderDialog({ apply: { isPending: false, error: new ApiError(409, parseErrorBody(body), body) } });
    const refusal = screen.getByTestId('guard-refusal');
    expect(refusal).toHaveAttribute('role', 'alert');
    expect(within(refusal).getByText(UNSAFE.detail)).toBeInTheDocument();
    const table = within(refusal).getByRole('table', { name: 'ToRs that block the change' });
    const blocking = within(table).getByRole('row', { name: /p1-tor6/ });
    expect(blocking).toHaveTextContent('p1-tor612 → 8 of 1612 (0.75)falls under its constraint, 4 paths short');
    // The stale safe preview is not shown beside the refusal, and nothing more can be sent.
    expect(screen.queryByTestId('guard-preview')).toBeNull();
    expect(screen.getByRole('button', { name: 'Disable link' })).toBeDisabled();
    fireEvent.click(within(refusal).getByRole('button', { name: 'Check again' }));
    expect(props.onPreview).toHaveBeenCalledTimes(2);
  });

  it('shows other errors in plain words, and closes on Escape and Cancel', () => {
    const props = renderDialog({
      apply: { isPending: false, error: new ApiError(403, ['Only admins may override the capacity guard.'], null) },
    });
    expect(screen.getByText('Only admins may override the capacity guard.')).toBeInTheDocument();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(props.onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(props.onClose).toHaveBeenCalledTimes(2);
  });

  it('hides the reason for an undrain and says when no ToR changes', () => {
    renderDialog({
      title: 'Undrain p0-spine0',
      confirmLabel: 'Undrain switch',
      reasonLabel: null,
      note: 'Putting links back is always allowed.',
      preview: { isPending: false, error: null, data: { ...SAFE, links: [], affected_tors: [] } },
    });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByTestId('guard-no-tors')).toHaveTextContent('No ToR’s up-paths change.');
    expect(screen.getByText('No link changes: every link is already in that state.')).toBeInTheDocument();
    expect(screen.getByText('Putting links back is always allowed.')).toBeInTheDocument();
  });

  it('draws the worst ToRs of a large drain first and the rest on request', () => {
    // A spine of a 261-pod fabric: every ToR below it loses one of 16 paths; one falls under.
    const tors: GuardTor[] = Array.from({ length: 300 }, (_, i) => ({
      ...TOR5,
      switch: 100 + i,
      name: `p${i}-tor0`,
      paths_before: 16,
      paths_after: 15,
    }));
    tors[250] = { ...TOR5, switch: 350, name: 'p250-tor0', paths_before: 12, paths_after: 11 };
    renderDialog({ preview: { isPending: false, error: null, data: { ...UNSAFE, affected_tors: tors } } });
    const rows = screen.getAllByTestId('guard-tor');
    expect(rows).toHaveLength(TORS_SHOWN);
    expect(rows[0]).toHaveAttribute('data-tor', 'p250-tor0');
    expect(screen.getByTestId('guard-tors-more')).toHaveTextContent(`${TORS_SHOWN} of 300 ToRs shown`);
    fireEvent.click(within(screen.getByTestId('guard-tors-more')).getByRole('button', { name: 'Show all' }));
    expect(screen.getAllByTestId('guard-tor')).toHaveLength(300);
    expect(screen.queryByTestId('guard-tors-more')).toBeNull();
  });
});
