import { useEffect, useId, useRef, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Modal } from '@/components/Modal';
import { formatCount } from '@/lib/format';

import type { GuardPreview, GuardTor } from '../api/types';
import {
  fallsUnder,
  formatConstraint,
  linksChanging,
  pathsChange,
  reasonProblem,
  refusalOf,
  torOutcome,
  worstFirst,
} from '../capacityGuard';

export interface CapacityChangeChoice {
  reason: string;
  /** Admins only: apply although a ToR falls under its constraint. */
  override: boolean;
}

export interface CapacityChangeDialogProps {
  /** "Disable p0-tor0 eth2/1 ↔ p0-fab0 eth1/1", "Drain p0-spine0". */
  title: string;
  /** The confirm button: "Disable link", "Drain switch". */
  confirmLabel: string;
  /** The confirm button while the change is sent: "Disabling…". */
  pendingLabel: string;
  /** The dry run's state (the same request with ?dry_run=1). */
  preview: { isPending: boolean; error: unknown; data: GuardPreview | undefined };
  /** Sends the dry run again (on open, and after a refusal). */
  onPreview: (reason: string) => void;
  /** The real request's state; a 409 shows as a refusal naming the blocking ToRs. */
  apply: { isPending: boolean; error: unknown };
  onConfirm: (choice: CapacityChangeChoice) => void;
  onClose: () => void;
  /** Label of the reason field; null hides it (an undrain says nothing). */
  reasonLabel: string | null;
  /** Admins see the override. */
  canOverride: boolean;
  /** One more sentence under the verdict, e.g. that the optimizer re-runs. */
  note?: string;
  testId?: string;
}

/**
 * The preview of a change that takes links out of service (or puts them back): every ToR whose up-paths
 * move, before → after against the paths its constraint requires, and the guard's verdict. Confirm sends
 * the real request; a refusal (409) names the ToRs that block it. Shared by the link page (disable) and the
 * topology's switch panel (drain, undrain).
 */
export function CapacityChangeDialog({
  title,
  confirmLabel,
  pendingLabel,
  preview,
  onPreview,
  apply,
  onConfirm,
  onClose,
  reasonLabel,
  canOverride,
  note,
  testId = 'capacity-dialog',
}: CapacityChangeDialogProps) {
  const [reason, setReason] = useState('');
  const [override, setOverride] = useState(false);
  const [tried, setTried] = useState(false);
  const reasonId = useId();
  const problemId = useId();

  // The dry run goes out when the dialog opens; a ref keeps it to once per opening.
  const previewRef = useRef(onPreview);
  useEffect(() => {
    previewRef.current('');
  }, []);

  const refusal = refusalOf(apply.error);
  const answer = preview.data;
  const unsafe = refusal !== null || answer?.verdict === 'unsafe';
  const problem = reasonProblem({ override, reason });
  const shownProblem = tried ? problem : null;
  const ready = answer !== undefined && !preview.isPending && !apply.isPending;
  const allowed = ready && (!unsafe || (canOverride && override));

  const confirm = () => {
    setTried(true);
    if (problem || !allowed) return;
    onConfirm({ reason: reason.trim(), override: unsafe && override });
  };

  return (
    <Modal title={title} onClose={onClose} busy={apply.isPending} testId={testId}>
      <form
        className="capacity-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
      >
        {preview.isPending ? <Loading label="Checking every ToR’s capacity…" /> : null}
        <ErrorList error={preview.error} title="Could not check capacity." />

        {refusal ? (
          <div className="error-box guard-refusal" role="alert" data-testid="guard-refusal">
            <p className="error-title">{refusal.detail}</p>
            <GuardTorsTable tors={refusal.blocking_tors} caption="ToRs that block the change" />
            <p>
              Nothing changed.{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setTried(false);
                  onPreview(reason.trim());
                }}
              >
                Check again
              </button>
            </p>
          </div>
        ) : apply.error ? (
          <ErrorList error={apply.error} title="Not changed." />
        ) : null}

        {answer && !refusal ? <PreviewView answer={answer} /> : null}
        {note && answer ? <p className="muted">{note}</p> : null}

        {reasonLabel !== null ? (
          <div className="dialog-field">
            <label htmlFor={reasonId}>{reasonLabel}</label>
            <input
              id={reasonId}
              type="text"
              value={reason}
              maxLength={200}
              autoComplete="off"
              aria-invalid={shownProblem ? true : undefined}
              aria-describedby={shownProblem ? problemId : undefined}
              onChange={(event) => setReason(event.target.value)}
            />
            {shownProblem ? (
              <p id={problemId} className="field-error" role="alert">
                {shownProblem}
              </p>
            ) : null}
          </div>
        ) : null}

        {unsafe && canOverride ? (
          <label className="check override-check">
            <input type="checkbox" checked={override} onChange={(event) => setOverride(event.target.checked)} />
            Override capacity: apply it although a ToR falls under its constraint (admins only; needs a reason, and is
            audited as an override)
          </label>
        ) : null}
        {unsafe && !canOverride && ready ? (
          <p className="muted" data-testid="guard-no-override">
            The guard refuses this change. Only an admin may override it, with a reason.
          </p>
        ) : null}

        <div className="dialog-buttons">
          <button type="submit" className={unsafe ? 'danger' : 'primary'} disabled={!allowed}>
            {apply.isPending ? pendingLabel : unsafe && override ? `${confirmLabel} anyway` : confirmLabel}
          </button>
          <button type="button" onClick={onClose} disabled={apply.isPending}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

function PreviewView({ answer }: { answer: GuardPreview }) {
  const safe = answer.verdict === 'safe';
  return (
    <div className="guard-preview" data-testid="guard-preview" data-verdict={answer.verdict}>
      <div className={`guard-verdict guard-verdict-${answer.verdict}`} data-testid="guard-verdict">
        <p className="guard-verdict-title">
          {safe ? 'Safe: the guard allows this change' : 'Unsafe: the guard refuses this change'}
        </p>
        <p>{answer.detail}</p>
      </div>
      <p className="muted">{linksChanging(answer.links.length)}</p>
      {answer.affected_tors.length === 0 ? (
        <p data-testid="guard-no-tors">No ToR’s up-paths change.</p>
      ) : (
        <GuardTorsTable tors={answer.affected_tors} caption="ToRs whose up-paths change" />
      )}
    </div>
  );
}

/** Rows drawn at first: a spine of a large fabric affects thousands of ToRs, worst first. */
export const TORS_SHOWN = 50;

/** Each ToR's up-paths before → after, the paths its constraint requires, and its fate. */
export function GuardTorsTable({ tors, caption }: { tors: GuardTor[]; caption: string }) {
  const [showAll, setShowAll] = useState(false);
  const ordered = worstFirst(tors);
  const shown = showAll ? ordered : ordered.slice(0, TORS_SHOWN);
  return (
    <div className="table-scroll">
      <table className="data-table guard-tors" data-testid="guard-tors">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">ToR</th>
            <th scope="col" className="numeric">
              Up-paths before → after
            </th>
            <th scope="col" className="numeric">
              Needs (constraint)
            </th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((tor) => (
            <tr
              key={tor.switch}
              data-testid="guard-tor"
              data-tor={tor.name}
              data-falls-under={fallsUnder(tor)}
              className={fallsUnder(tor) ? 'falls-under' : undefined}
            >
              <th scope="row">{tor.name}</th>
              <td className="numeric" data-label="Up-paths">
                {pathsChange(tor)} <span className="muted">of {tor.design_paths}</span>
              </td>
              <td className="numeric" data-label="Needs">
                {tor.required_paths} <span className="muted">({formatConstraint(tor.constraint)})</span>
              </td>
              <td data-label="Outcome">{torOutcome(tor)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length < ordered.length ? (
        <p className="muted" data-testid="guard-tors-more">
          {TORS_SHOWN} of {formatCount(ordered.length)} ToRs shown, those that fall under first.{' '}
          <button type="button" className="link-button" onClick={() => setShowAll(true)}>
            Show all
          </button>
        </p>
      ) : null}
    </div>
  );
}
