import type { ReactNode } from 'react';

import { ErrorList } from './ErrorList';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The server's answer when it refused; shown above the buttons. */
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
}

/** A question before a change that needs no preview (enabling a link is always allowed). */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  onConfirm,
  onClose,
  testId,
}: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={onClose} busy={pending} testId={testId}>
      {children}
      <ErrorList error={error} title="Not changed." />
      <div className="dialog-buttons">
        <button type="button" className="primary" disabled={pending} onClick={onConfirm}>
          {pending ? pendingLabel : confirmLabel}
        </button>
        <button type="button" onClick={onClose} disabled={pending}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
