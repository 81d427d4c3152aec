import { useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { ApiError } from '@/lib/api-client';

import type { StartPreview, WorkOrderDetail } from '../api/types';
import { useStartPreview, useStartWorkOrder } from '../api/useStartWork';
import { StartOptions } from './StartOptions';

/** A refused start (409) carries the preview as it stands now: the options are shown again from it. */
function refusedPreview(error: unknown): StartPreview | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as Partial<StartPreview> | null;
  return body && typeof body.verdict === 'string' && Array.isArray(body.footprint) ? (body as StartPreview) : null;
}

/**
 * "Start work" on an open order: it asks the dry run first and shows its options (confirm, restore
 * links, wait, override); nothing changes until one is chosen.
 */
export function StartWorkPanel({ order, canOverride }: { order: WorkOrderDetail; canOverride: boolean }) {
  const preview = useStartPreview(order.id);
  const start = useStartWorkOrder(order);
  const [open, setOpen] = useState(false);
  const refused = refusedPreview(start.error);
  const shown = refused ?? preview.data;

  const close = () => {
    setOpen(false);
    preview.reset();
    start.reset();
  };

  if (!open) {
    return (
      <div className="action-block">
        <p>Starting asks the capacity guard first; nothing goes out of service until you confirm.</p>
        <button
          type="button"
          className="primary"
          onClick={() => {
            setOpen(true);
            preview.mutate();
          }}
        >
          Start work
        </button>
      </div>
    );
  }
  return (
    <div className="action-block" data-testid="start-work">
      {preview.isPending ? <Loading label="Checking every ToR’s capacity…" /> : null}
      <ErrorList error={preview.error} title="Could not check capacity." />
      {refused ? (
        <p className="error-box" role="alert" data-testid="start-refused">
          Not started: {refused.detail}
        </p>
      ) : (
        <ErrorList error={start.error} title="Could not start the work order." />
      )}
      {shown ? (
        <StartOptions
          preview={shown}
          canOverride={canOverride}
          pending={start.isPending}
          onStart={(input) => start.mutate(input)}
          onCancel={close}
        />
      ) : null}
      {preview.error ? (
        <button type="button" onClick={close}>
          Close
        </button>
      ) : null}
    </div>
  );
}
