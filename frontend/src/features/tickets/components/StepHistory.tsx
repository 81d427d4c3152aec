import { formatTime } from '@/lib/format';

import type { LinkEnd, TicketStep } from '../api/types';
import { actionDone, describeRule, stepStatus } from '../repairActions';
import { actionAt, doneStepSummary, stepsNewestFirst } from '../ticketHeader';

function followedWord(step: TicketStep): string {
  if (!step.action_taken) return '—';
  return step.followed ? 'yes' : 'no';
}

/** Every repair attempt, the current one first: what was advised, what was done, by whom, and
 * whether it held. A done step collapses to its summary line (expandable); one not acted on is open. */
export function StepHistory({ steps, ends = [] }: { steps: TicketStep[]; ends?: LinkEnd[] }) {
  return (
    <ol className="step-history" data-testid="step-history">
      {stepsNewestFirst(steps).map((step) => (
        <li
          key={step.number}
          className="step"
          data-testid="ticket-step"
          data-step={step.number}
          data-outcome={step.outcome}
          data-followed={step.followed === null ? '' : String(step.followed)}
        >
          <details open={!step.action_taken}>
            <summary data-testid="step-summary">
              <strong>Step {step.number}</strong>{' '}
              {step.action_taken ? (
                doneStepSummary(step)
              ) : (
                <span className={`badge badge-outcome-${step.outcome}`}>{stepStatus(step)}</span>
              )}
            </summary>
            <StepFacts step={step} ends={ends} />
          </details>
        </li>
      ))}
    </ol>
  );
}

function StepFacts({ step, ends }: { step: TicketStep; ends: LinkEnd[] }) {
  return (
    <dl>
      <div>
        <dt>Recommended</dt>
        <dd>
          {actionAt(step.recommended_action, step.evidence, ends, step.direction)}{' '}
          <span className="muted">({describeRule(step.rule)})</span>
        </dd>
      </div>
      <div>
        <dt>Taken</dt>
        <dd data-testid="step-action-taken">{step.action_taken ? actionDone(step.action_taken) : 'not yet'}</dd>
      </div>
      <div>
        <dt>Followed the recommendation</dt>
        <dd>{followedWord(step)}</dd>
      </div>
      <div>
        <dt>Technician</dt>
        <dd>{step.technician ?? '—'}</dd>
      </div>
      <div>
        <dt>Recommended at</dt>
        <dd>{formatTime(step.created)}</dd>
      </div>
      <div>
        <dt>Acted at</dt>
        <dd>{formatTime(step.acted_at)}</dd>
      </div>
      {step.notes ? (
        <div className="step-notes">
          <dt>Notes</dt>
          <dd>{step.notes}</dd>
        </div>
      ) : null}
    </dl>
  );
}
