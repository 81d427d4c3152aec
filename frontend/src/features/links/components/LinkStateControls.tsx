import { useState } from 'react';

import { ConfirmDialog } from '@/components/ConfirmDialog';
import { formatReason } from '@/lib/format';

import type { FabricLink } from '../api/types';
import { useChangeLinkAdminState } from '../api/useChangeLinkAdminState';
import { CapacityChangeDialog } from './CapacityChangeDialog';

interface LinkStateControlsProps {
  link: FabricLink;
  /** "p0-tor0 eth2/1 ↔ p0-fab0 eth1/1" */
  linkName: string;
  canOverride: boolean;
}

/** Disable (after the capacity guard's preview) or Enable (after a confirm) one link. Operators and admins. */
export function LinkStateControls({ link, linkName, canOverride }: LinkStateControlsProps) {
  const [open, setOpen] = useState<'disable' | 'enable' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="state-controls" data-testid="link-controls">
      {link.admin_state === 'enabled' ? (
        <button
          type="button"
          className="danger"
          onClick={() => {
            setDone(null);
            setOpen('disable');
          }}
        >
          Disable link…
        </button>
      ) : (
        <button
          type="button"
          onClick={() => {
            setDone(null);
            setOpen('enable');
          }}
        >
          Enable link…
        </button>
      )}
      {done ? (
        <span className="success-note" role="status" data-testid="link-change-done">
          {done}
        </span>
      ) : null}
      {open === 'disable' ? (
        <DisableDialog
          link={link}
          linkName={linkName}
          canOverride={canOverride}
          onClose={() => setOpen(null)}
          onDone={(message) => {
            setOpen(null);
            setDone(message);
          }}
        />
      ) : null}
      {open === 'enable' ? (
        <EnableDialog
          link={link}
          linkName={linkName}
          onClose={() => setOpen(null)}
          onDone={(message) => {
            setOpen(null);
            setDone(message);
          }}
        />
      ) : null}
    </div>
  );
}

interface DialogProps {
  link: FabricLink;
  linkName: string;
  onClose: () => void;
  onDone: (message: string) => void;
}

function DisableDialog({ link, linkName, canOverride, onClose, onDone }: DialogProps & { canOverride: boolean }) {
  const preview = useChangeLinkAdminState(link, { dryRun: true });
  const apply = useChangeLinkAdminState(link, { dryRun: false });
  return (
    <CapacityChangeDialog
      title={`Disable ${linkName}`}
      confirmLabel="Disable link"
      pendingLabel="Disabling…"
      preview={preview}
      onPreview={(reason) => {
        apply.reset();
        preview.mutate({ admin_state: 'disabled', admin_reason: reason });
      }}
      apply={apply}
      onConfirm={({ reason, override }) =>
        apply.mutate(
          { admin_state: 'disabled', admin_reason: reason, ...(override ? { override_capacity: true as const } : {}) },
          {
            onSuccess: () => onDone(override ? 'Disabled, overriding the capacity guard (audited).' : 'Disabled.'),
          },
        )
      }
      onClose={onClose}
      reasonLabel="Reason (saved with the link, shown to technicians)"
      canOverride={canOverride}
      testId="disable-dialog"
    />
  );
}

function EnableDialog({ link, linkName, onClose, onDone }: DialogProps) {
  const apply = useChangeLinkAdminState(link, { dryRun: false });
  return (
    <ConfirmDialog
      title={`Enable ${linkName}`}
      confirmLabel="Enable link"
      pendingLabel="Enabling…"
      pending={apply.isPending}
      error={apply.error}
      onConfirm={() =>
        apply.mutate(
          { admin_state: 'enabled', admin_reason: '' },
          { onSuccess: () => onDone('Enabled. CorrOpt’s optimizer re-runs on this fabric.') },
        )
      }
      onClose={onClose}
      testId="enable-dialog"
    >
      <p>
        Put this link back in service? Enabling is always allowed: it only adds up-paths.
        {link.admin_reason ? ` It was disabled for “${formatReason(link.admin_reason)}”.` : ''}
      </p>
      <p className="muted">
        Once it commits, CorrOpt’s optimizer re-runs on this fabric: with the capacity back it may disable corrupting
        links it had kept in service.
      </p>
    </ConfirmDialog>
  );
}
