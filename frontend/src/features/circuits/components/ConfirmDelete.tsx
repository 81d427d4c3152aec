import { useState } from 'react';

import { ErrorList } from '@/components/ErrorList';

interface ConfirmDeleteProps {
  /** What goes, as the question names it: `demand “hot pairs”`. */
  what: string;
  /** One sentence on what else goes and what stays. */
  consequence: string;
  /** Sends the DELETE; a rejection (e.g. the server's 409 sentence) is shown under the question. */
  onDelete: () => Promise<unknown>;
}

/** A Delete button that asks first, naming what goes; the server's refusal stays on screen. */
export function ConfirmDelete({ what, consequence, onDelete }: ConfirmDeleteProps) {
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (!asking) {
    return (
      <button
        type="button"
        className="danger"
        onClick={() => {
          setError(null);
          setAsking(true);
        }}
      >
        Delete
      </button>
    );
  }
  const confirm = () => {
    setPending(true);
    setError(null);
    onDelete()
      .catch((reason: unknown) => setError(reason))
      .finally(() => setPending(false));
  };
  return (
    <div className="confirm-delete" role="group" aria-label={`Delete ${what}`}>
      <p>
        Delete {what}? {consequence}
      </p>
      <button type="button" className="danger" disabled={pending} onClick={confirm}>
        {pending ? 'Deleting…' : `Delete ${what}`}
      </button>{' '}
      <button type="button" disabled={pending} onClick={() => setAsking(false)}>
        Cancel
      </button>
      <ErrorList error={error} title="Not deleted." />
    </div>
  );
}
