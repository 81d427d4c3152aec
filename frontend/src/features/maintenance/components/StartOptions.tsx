import { useId, useState } from 'react';
import { Link } from 'react-router';

import { GuardTorsTable } from '@/features/links';
import { formatCount } from '@/lib/format';

import type { StartInput, StartPreview } from '../api/types';
import { actionLabel } from '../actionLabel';
import { describeUnreachable } from '../workOrders';
import { AddedPenalty, LossyLinksTable } from './LossyLinksTable';

export interface StartOptionsProps {
  preview: StartPreview;
  /** Admins may start a blocked order anyway, with a reason. */
  canOverride: boolean;
  pending: boolean;
  onStart: (input: StartInput) => void;
  onCancel: () => void;
}

const VERDICT_TITLES: Record<StartPreview['verdict'], string> = {
  safe: 'Safe to start: every ToR keeps its capacity',
  needs_restoration: 'Not safe as it stands: it needs a capacity restoration',
  blocked: 'Blocked: no restoration keeps every ToR at its capacity',
};

/** The dry run's verdict and what the user may do about it: confirm, restore links, wait, or override. */
export function StartOptions({ preview, canOverride, pending, onStart, onCancel }: StartOptionsProps) {
  return (
    <div className="start-options" data-testid="start-options" data-verdict={preview.verdict}>
      <div className={`guard-verdict guard-verdict-${preview.verdict === 'safe' ? 'safe' : 'unsafe'}`}>
        <p className="guard-verdict-title" data-testid="start-verdict">
          {VERDICT_TITLES[preview.verdict]}
        </p>
        <p data-testid="start-detail">{preview.detail}</p>
      </div>
      <p>
        Starting takes{' '}
        {preview.footprint.length === 1 ? 'this link' : `these ${formatCount(preview.footprint.length)} links`} out of
        service for the repair:
      </p>
      <ul className="footprint-names" data-testid="start-footprint">
        {preview.footprint.map((link) => (
          <li key={link.id}>
            <Link to={`/links/${link.id}`}>{link.name}</Link>
          </li>
        ))}
      </ul>
      {preview.verdict === 'safe' ? (
        <SafeChoice
          pending={pending}
          onStart={() => onStart({ override_capacity: false, admin_reason: '' })}
          onCancel={onCancel}
        />
      ) : null}
      {preview.verdict === 'needs_restoration' && preview.restoration ? (
        <RestorationChoice preview={preview} pending={pending} onStart={onStart} onCancel={onCancel} />
      ) : null}
      {preview.verdict === 'blocked' ? (
        <BlockedChoice
          preview={preview}
          canOverride={canOverride}
          pending={pending}
          onStart={onStart}
          onCancel={onCancel}
        />
      ) : null}
    </div>
  );
}

function SafeChoice({ pending, onStart, onCancel }: { pending: boolean; onStart: () => void; onCancel: () => void }) {
  return (
    <div className="button-row">
      <button type="button" className="primary" disabled={pending} onClick={onStart}>
        {pending ? 'Starting…' : 'Confirm: start work'}
      </button>
      <button type="button" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
    </div>
  );
}

function RestorationChoice({
  preview,
  pending,
  onStart,
  onCancel,
}: {
  preview: StartPreview;
  pending: boolean;
  onStart: (input: StartInput) => void;
  onCancel: () => void;
}) {
  const restoration = preview.restoration;
  if (!restoration) return null;
  return (
    <section className="restoration" aria-labelledby="restoration-heading" data-testid="restoration">
      <h3 id="restoration-heading">Restore these links for the repair’s duration</h3>
      <p data-testid="restoration-why">
        They are out of service for corruption but still work (they pass traffic with a small loss when enabled);
        enabling them while the repair lasts keeps every ToR at its capacity. They go back to disabled when the work
        order is finished.
      </p>
      <LossyLinksTable links={restoration.links} testId="restoration-links" rowTestId="restoration-link" />
      <AddedPenalty
        penalty={restoration.added_penalty}
        provenOptimal={restoration.proven_optimal}
        testId="restoration-penalty"
      />
      {restoration.needs_approval ? (
        <p className="notice" data-testid="ask-operator">
          Ask an operator: an operator must approve re-enabling lossy links. The operator starts it, which enables these
          links; then you do the work and finish it on this page. Today lists orders in progress that you started or
          whose ticket is assigned to you.
        </p>
      ) : (
        <div className="button-row">
          <button
            type="button"
            className="primary"
            disabled={pending}
            onClick={() =>
              onStart({
                restoration: restoration.links.map((link) => link.id),
                override_capacity: false,
                admin_reason: '',
              })
            }
          >
            {pending ? 'Starting…' : 'Restore these links for the repair'}
          </button>
          <button type="button" onClick={onCancel} disabled={pending}>
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}

function BlockedChoice({
  preview,
  canOverride,
  pending,
  onStart,
  onCancel,
}: {
  preview: StartPreview;
  canOverride: boolean;
  pending: boolean;
  onStart: (input: StartInput) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const reasonId = useId();
  const problemId = useId();
  const problem =
    reason.trim() === '' ? 'An override needs a reason: say why this ToR may fall under its constraint.' : null;
  return (
    <section className="blocked" aria-labelledby="blocked-heading" data-testid="blocked">
      <h3 id="blocked-heading">Who is short</h3>
      {preview.unreachable_tors.length > 0 ? (
        <ul data-testid="unreachable-tors">
          {preview.unreachable_tors.map((tor) => (
            <li key={tor.name} data-tor={tor.name}>
              {describeUnreachable(tor)}
            </li>
          ))}
        </ul>
      ) : null}
      {preview.blocking_tors.length > 0 ? (
        <GuardTorsTable tors={preview.blocking_tors} caption="ToRs under their constraint with the footprint down" />
      ) : null}
      {/* What frees capacity (a visit to finish, links to repair, or nothing: an admin's override) is the
          server's sentence above; the list only links the visits it names. */}
      {preview.waits_for.length > 0 ? (
        <>
          <h3>Wait for</h3>
          <p>These visits in progress hold paths of these ToRs; when they are finished, this one may start.</p>
          <ul data-testid="waits-for">
            {preview.waits_for.map((order) => (
              <li key={order.work_order}>
                <Link to={`/work-orders/${order.work_order}`}>
                  Work order #{order.work_order}: {actionLabel(order.action)}, {order.component_name}
                </Link>{' '}
                <span className="muted">({order.state.replace('_', ' ')})</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {canOverride ? (
        <form
          className="stacked-form override-form"
          aria-label="Override with a reason"
          onSubmit={(event) => {
            event.preventDefault();
            setTried(true);
            if (problem) return;
            onStart({ override_capacity: true, admin_reason: reason.trim() });
          }}
        >
          <label htmlFor={reasonId}>Override with a reason (admins; audited)</label>
          <input
            id={reasonId}
            type="text"
            value={reason}
            maxLength={120}
            autoComplete="off"
            aria-invalid={tried && problem ? true : undefined}
            aria-describedby={tried && problem ? problemId : undefined}
            onChange={(event) => setReason(event.target.value)}
          />
          {tried && problem ? (
            <p id={problemId} className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="button-row">
            <button type="submit" className="danger" disabled={pending}>
              {pending ? 'Starting…' : 'Override and start work'}
            </button>
            <button type="button" onClick={onCancel} disabled={pending}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p className="muted" data-testid="no-override">
          Only an admin may start it anyway, with a reason (a rack drained of its servers, say).
        </p>
      )}
    </section>
  );
}
