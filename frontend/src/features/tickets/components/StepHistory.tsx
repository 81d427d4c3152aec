import { formatTime } from '@/lib/format';

import type { TicketStep } from '../api/types';
import { actionDone, actionTodo, describeRule, stepStatus } from '../repairActions';

function followedWord(step: TicketStep): string {
  if (!step.action_taken) return '—';
  return step.followed ? 'yes' : 'no';
}

/** Every repair attempt: what was advised, what was done, by whom, and whether it held. */
export function StepHistory({ steps }: { steps: TicketStep[] }) {
  return (
    <ol className="step-history" data-testid="step-history">
      {steps.map((step) => (
        <li
          key={step.number}
          className="step"
          data-testid="ticket-step"
          data-step={step.number}
          data-outcome={step.outcome}
          data-followed={step.followed === null ? '' : String(step.followed)}
        >
          <h3>
            Step {step.number} <span className={`badge badge-outcome-${step.outcome}`}>{stepStatus(step)}</span>
          </h3>
          <dl>
            <div>
              <dt>Recommended</dt>
              <dd>
                {actionTodo(step.recommended_action)} <span className="muted">({describeRule(step.rule)})</span>
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
        </li>
      ))}
    </ol>
  );
}
