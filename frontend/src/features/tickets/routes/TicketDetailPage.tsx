import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { canWorkTickets, useCurrentUser } from '@/features/auth';
import { useFabric } from '@/features/fabrics';
import { useLink } from '@/features/links';
import { formatAge, formatReason, formatTime } from '@/lib/format';
import { formatLossRate } from '@/lib/format/number';

import type { Recommendation, TicketDetail } from '../api/types';
import { useTicket } from '../api/useTicket';
import { RecommendationPanel } from '../components/RecommendationPanel';
import { StepHistory } from '../components/StepHistory';
import { TicketActions } from '../components/TicketActions';
import { TicketComments } from '../components/TicketComments';
import { TicketEnds } from '../components/TicketEnds';
import { TicketHeader } from '../components/TicketHeader';
import { TicketStateBadge } from '../components/TicketStateBadge';
import { TicketWorkOrderLink } from '../components/TicketWorkOrderLink';
import { isPreventiveRule } from '../repairActions';
import { currentStep, doneStepSummary } from '../ticketHeader';
import '../tickets.css';

// The charts (D3) come after the header: a phone shows where to go without waiting for them.
const TicketTelemetry = lazy(() => import('../components/TicketTelemetry'));

export function TicketDetailPage() {
  const { ticketId: rawId } = useParams();
  const ticketId = Number(rawId);
  if (!Number.isInteger(ticketId) || ticketId <= 0) {
    return (
      <section>
        <h1>Ticket not found</h1>
        <p>
          “{rawId}” is not a ticket id. <Link to="/tickets">Back to tickets</Link>
        </p>
      </section>
    );
  }
  return <TicketPage ticketId={ticketId} />;
}

function TicketPage({ ticketId }: { ticketId: number }) {
  const ticket = useTicket(ticketId);
  const user = useCurrentUser();
  const mayWork = canWorkTickets(user.data);
  const data = ticket.data;

  return (
    <article aria-labelledby="ticket-heading" className="ticket-page">
      <p className="breadcrumb">
        <Link to="/tickets">Tickets</Link>
      </p>
      <h1 id="ticket-heading">
        Ticket #{ticketId}
        {data ? <span className="ticket-heading-link"> {data.link_name}</span> : null}
      </h1>
      {ticket.isPending ? <Loading label="Loading ticket…" /> : null}
      <ErrorList error={ticket.error} title="Could not load the ticket." />
      {data ? (
        <>
          <TicketHeader ticket={data} />

          <TicketSummary ticket={data} />

          <section className="panel" aria-labelledby="recommendation-heading">
            <h2 id="recommendation-heading">What to do</h2>
            {data.recommendation ? (
              <CurrentStepAdvice ticket={data} recommendation={data.recommendation} />
            ) : (
              <p>No recommendation: the ticket has no step yet.</p>
            )}
          </section>

          <section className="panel" aria-labelledby="work-heading">
            <h2 id="work-heading">Work on this ticket</h2>
            {mayWork && user.data ? (
              <TicketActions ticket={data} username={user.data.username} />
            ) : (
              <p className="muted" data-testid="read-only-note">
                Technicians and operators work tickets; your role can read them.
              </p>
            )}
          </section>

          <section className="panel" aria-labelledby="ends-heading">
            <h2 id="ends-heading">Link ends</h2>
            <TicketEnds
              ends={data.ends}
              receivingEnd={data.recommendation?.evidence.local_end}
              receivingLabel={
                data.recommendation && isPreventiveRule(data.recommendation.rule) ? 'end to act on' : undefined
              }
            />
          </section>

          <Suspense fallback={<Loading label="Loading telemetry…" />}>
            <TicketTelemetry ticket={data} />
          </Suspense>

          <section className="panel" aria-labelledby="steps-heading">
            <h2 id="steps-heading">Step history</h2>
            <StepHistory steps={data.steps} ends={data.ends} />
          </section>

          <section className="panel" aria-labelledby="comments-heading">
            <h2 id="comments-heading">Comments</h2>
            <TicketComments ticketId={data.id} comments={data.comments} canComment={mayWork} />
          </section>
        </>
      ) : null}
    </article>
  );
}

/** The current step's advice, open while it is to be done; once done, one line saying so, the advice
 * and its evidence folded under it (what was read when it was advised, not a task any more). */
function CurrentStepAdvice({ ticket, recommendation }: { ticket: TicketDetail; recommendation: Recommendation }) {
  const step = currentStep(ticket);
  const panel = <RecommendationPanel recommendation={recommendation} ends={ticket.ends} />;
  if (!step?.action_taken) return panel;
  return (
    <details className="advice-done" data-testid="advice-done">
      <summary>
        Step {step.number} done: {doneStepSummary(step)}.
        {ticket.state === 'awaiting_validation' ? ' Nothing to do while it is validated.' : ''} The advice as given,
        with its evidence:
      </summary>
      {panel}
    </details>
  );
}

function TicketSummary({ ticket }: { ticket: TicketDetail }) {
  const link = useLink(ticket.link);
  const fabric = useFabric(ticket.fabric);
  return (
    <dl className="facts" data-testid="ticket-facts">
      <div>
        <dt>State</dt>
        <dd>
          <TicketStateBadge state={ticket.state} />
        </dd>
      </div>
      <div>
        <dt>Kind</dt>
        <dd data-testid="ticket-kind">
          {ticket.kind === 'preventive'
            ? 'Preventive: the link is forecast to fail and stays in service until the repair'
            : 'Repair: CorrOpt took the link out of service for corruption'}
        </dd>
      </div>
      <div>
        <dt>Link</dt>
        <dd>
          <Link to={`/links/${ticket.link}`}>{ticket.link_name}</Link>
        </dd>
      </div>
      <div>
        <dt>Work order</dt>
        <dd>
          <TicketWorkOrderLink ticket={ticket} />
        </dd>
      </div>
      <div>
        <dt>CorrOpt</dt>
        <dd>
          <Link to={`/decisions?link=${ticket.link}`}>Decisions on this link</Link>
        </dd>
      </div>
      <div>
        <dt>Link admin state</dt>
        <dd data-testid="ticket-link-admin-state">
          {link.data ? (
            <>
              <span className={`badge badge-${link.data.admin_state}`}>{link.data.admin_state}</span>
              {link.data.admin_reason ? <span className="reason"> {formatReason(link.data.admin_reason)}</span> : null}
            </>
          ) : (
            '…'
          )}
        </dd>
      </div>
      <div>
        <dt>Fabric / pod</dt>
        <dd>
          {fabric.data?.name ?? `fabric ${ticket.fabric}`}
          {ticket.pod === null ? '' : ` · pod ${ticket.pod}`}
        </dd>
      </div>
      <div>
        <dt>Penalty (loss rate)</dt>
        <dd>{formatLossRate(ticket.penalty)}</dd>
      </div>
      <div>
        <dt>Opened</dt>
        <dd title={formatTime(ticket.created)}>{formatAge(ticket.created)} ago</dd>
      </div>
      <div>
        <dt>Assignee</dt>
        <dd>{ticket.assignee ?? 'nobody'}</dd>
      </div>
    </dl>
  );
}
