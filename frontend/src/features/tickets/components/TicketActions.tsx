import { useState } from 'react';
import { Link } from 'react-router';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { ErrorList } from '@/components/ErrorList';
import { useLink } from '@/features/links';
import { formatTime } from '@/lib/format';

import type { RepairAction, TicketDetail } from '../api/types';
import { useAssignTicket } from '../api/useAssignTicket';
import { useAssignableUsers } from '../api/useAssignableUsers';
import { useRecordAction } from '../api/useRecordAction';
import { useStartTicket } from '../api/useStartTicket';
import { useTicketWorkOrder } from '../api/useTicketWorkOrder';
import { ACTION_LABELS, REPAIR_ACTIONS } from '../repairActions';

interface TicketActionsProps {
  ticket: TicketDetail;
  username: string;
}

/** What the technician can do next, by state: take it, record the action taken, (re)assign. */
export function TicketActions({ ticket, username }: TicketActionsProps) {
  // Held here, not in the form: the form goes away when the ticket moves on, its answer stays.
  const record = useRecordAction(ticket.id);
  return (
    <div className="ticket-actions" data-testid="ticket-actions">
      {record.data ? (
        <p className={record.data.link_enabled ? 'success-box' : 'notice'} role="status" data-testid="act-message">
          {record.data.message}
        </p>
      ) : null}
      {ticket.state === 'open' || ticket.state === 'reopened' ? <TakeButton ticket={ticket} /> : null}
      {ticket.state === 'in_progress' ? (
        <RecordAction key={ticket.steps.length} ticket={ticket} record={record} />
      ) : null}
      {ticket.state === 'awaiting_validation' && ticket.kind === 'preventive' ? (
        <PreventiveValidationNote ticket={ticket} />
      ) : ticket.state === 'awaiting_validation' ? (
        <p data-testid="validation-note">
          The link is watched for clean polls
          {ticket.validation_started_at ? ` since ${formatTime(ticket.validation_started_at)}` : ''}; the ticket
          resolves by itself when it stays clean, and returns to open with the next step if corruption comes back.
        </p>
      ) : null}
      {ticket.state === 'resolved' ? <p>Resolved {formatTime(ticket.resolved_at)}.</p> : null}
      {ticket.state !== 'resolved' ? <AssignForm ticket={ticket} username={username} /> : null}
    </div>
  );
}

/**
 * When a preventive ticket resolves (corruption/tickets.py validate_tickets): as soon as the link has
 * had no corruption since the action and its forecast is no longer at risk, else at the end of the
 * validation window without corruption. Trial 27 item 4: neither was said.
 */
function PreventiveValidationNote({ ticket }: { ticket: TicketDetail }) {
  const end = ticket.validation_ends_at;
  return (
    <p data-testid="validation-note">
      The ticket resolves by itself as soon as the link has had no corruption since the repair and its forecast is no
      longer at risk; otherwise once it stays clean through the validation window
      {end ? `, which ends ${formatTime(end)}` : ', which starts when the link is back in service'}. If the link
      corrupts before, the ticket returns to open with a repair step.
    </p>
  );
}

/**
 * Taking a ticket assigns it and marks it in progress; it takes no link down. The visit that does
 * (the footprint out of service through the capacity guard) is its work order's Start, so the
 * button says what it does and points there (trial item 17a: both were "Start work").
 */
function TakeButton({ ticket }: { ticket: TicketDetail }) {
  const start = useStartTicket(ticket.id);
  const order = useTicketWorkOrder(ticket);
  return (
    <div className="action-block">
      <p>Taking the ticket tells others you are on it{ticket.assignee ? '' : ' and assigns it to you'}.</p>
      <button type="button" className="primary" onClick={() => start.mutate()} disabled={start.isPending}>
        {start.isPending ? 'Taking…' : 'Take this ticket'}
      </button>
      <p className="muted" data-testid="take-links-note">
        It takes no link out of service: the repair&apos;s links go down when its work order is started
        {order.data ? (
          <>
            {' '}
            (<Link to={`/work-orders/${order.data.id}`}>work order #{order.data.id}</Link>)
          </>
        ) : null}
        .
      </p>
      <ErrorList error={start.error} title="Could not take the ticket." />
    </div>
  );
}

/**
 * A preventive ticket's link is in service and its repair takes it down: only its work order's
 * Start does that safely (through the capacity guard), so the action is recorded once that order
 * is in progress (the server answers 400 before). Trial 27 item 1: this form recorded it straight
 * away and said it re-enabled a link that was never disabled.
 */
interface Visit {
  preventive: boolean;
  order: { id: number; state: string } | null;
  started: boolean;
  /** Waiting for its work order's start: the link is in service. */
  needsStart: boolean;
  /** Recording re-enables the link only when CorrOpt took it out for corruption (a repair's case). */
  reEnables: boolean;
}

/** A repair ticket's link is out of service already: recording the action re-enables it. */
const REPAIR_VISIT: Visit = { preventive: false, order: null, started: false, needsStart: false, reEnables: true };

function usePreventiveVisit(ticket: TicketDetail): Visit {
  const link = useLink(ticket.link);
  const order = useTicketWorkOrder(ticket);
  const admin = link.data?.admin_state;
  const started = order.data?.state === 'in_progress';
  return {
    preventive: true,
    order: order.data ?? null,
    started,
    needsStart: admin === 'enabled' && !started,
    reEnables: admin === 'disabled' && link.data?.admin_reason === 'corruption',
  };
}

type RecordProps = { ticket: TicketDetail; record: ReturnType<typeof useRecordAction> };

function RecordAction({ ticket, record }: RecordProps) {
  return ticket.kind === 'preventive' ? (
    <PreventiveRecordActionForm ticket={ticket} record={record} />
  ) : (
    <RecordActionForm ticket={ticket} record={record} visit={REPAIR_VISIT} />
  );
}

function PreventiveRecordActionForm({ ticket, record }: RecordProps) {
  return <RecordActionForm ticket={ticket} record={record} visit={usePreventiveVisit(ticket)} />;
}

function PreventiveVisitNote({ visit }: { visit: Visit }) {
  if (!visit.preventive || (!visit.needsStart && !visit.started)) return null;
  const order = visit.order;
  const orderLink = order ? <Link to={`/work-orders/${order.id}`}>work order #{order.id}</Link> : 'its work order';
  return visit.needsStart ? (
    <p className="notice" data-testid="preventive-visit-note">
      The link is in service and this repair takes it down. Start {orderLink} first: starting takes the link down only
      if every ToR keeps its capacity. Record the action here once it is in progress, or finish the work order as
      repaired.
    </p>
  ) : (
    <p className="muted" data-testid="preventive-visit-note">
      {order ? <>Work order #{order.id}</> : 'Its work order'} is in progress: the link is out of service for the
      repair, and finishing {orderLink} brings it back.
    </p>
  );
}

function RecordActionForm({ ticket, record, visit }: RecordProps & { visit: Visit }) {
  const recommended = ticket.recommendation?.action;
  const [action, setAction] = useState<RepairAction | ''>(recommended ?? '');
  const [notes, setNotes] = useState('');
  const [newSerial, setNewSerial] = useState('');
  // A replaced optic is a new part: its serial goes on the transceiver record (blank: not known).
  const replacing = action === 'replace_transceiver' || action === 'replace_far_transceiver';

  return (
    <form
      className="action-block stacked-form"
      aria-label="Record the action taken"
      onSubmit={(event) => {
        event.preventDefault();
        if (action) record.mutate({ action_taken: action, notes, new_serial: replacing ? newSerial.trim() : '' });
      }}
    >
      <ChoiceFieldset
        legend="Action taken"
        name="action_taken"
        options={REPAIR_ACTIONS.map((choice) => ({
          value: choice,
          label: ACTION_LABELS[choice].done,
          hint: choice === recommended ? <span className="badge badge-recommended">recommended</span> : null,
        }))}
        value={action || null}
        onChange={setAction}
        className="action-choices"
      />
      {replacing ? (
        <label>
          New transceiver serial (optional)
          <input
            type="text"
            autoComplete="off"
            value={newSerial}
            onChange={(event) => setNewSerial(event.target.value)}
          />
        </label>
      ) : null}
      <label>
        Notes (what you found, parts used)
        <textarea rows={3} value={notes} onChange={(event) => setNotes(event.target.value)} />
      </label>
      {action && recommended && action !== recommended ? (
        <p className="notice" role="note">
          This differs from the recommendation; it is recorded as not followed.
        </p>
      ) : null}
      <PreventiveVisitNote visit={visit} />
      <ErrorList error={record.error} title="Could not record the action." />
      <button type="submit" className="primary" disabled={!action || record.isPending || visit.needsStart}>
        {record.isPending ? 'Recording…' : visit.reEnables ? 'Record action and re-enable the link' : 'Record action'}
      </button>
    </form>
  );
}

function AssignForm({ ticket, username }: TicketActionsProps) {
  const assign = useAssignTicket(ticket.id);
  const [other, setOther] = useState('');
  // Suggestions only: a name typed by hand still goes to the API, which answers 400 for an unknown user.
  const assignable = useAssignableUsers();
  const listId = `assignable-users-${ticket.id}`;

  return (
    <div className="action-block assign-block">
      <p>
        Assigned to <strong data-testid="ticket-assignee">{ticket.assignee ?? 'nobody'}</strong>
      </p>
      <div className="button-row">
        {ticket.assignee !== username ? (
          <button type="button" onClick={() => assign.mutate({ username })} disabled={assign.isPending}>
            Assign to me
          </button>
        ) : null}
        {ticket.assignee ? (
          <button type="button" onClick={() => assign.mutate({ username: null })} disabled={assign.isPending}>
            Unassign
          </button>
        ) : null}
      </div>
      <form
        className="inline-form"
        aria-label="Assign to someone else"
        onSubmit={(event) => {
          event.preventDefault();
          assign.mutate({ username: other.trim() }, { onSuccess: () => setOther('') });
        }}
      >
        <label>
          Assign to (username)
          <input
            type="text"
            autoComplete="off"
            list={listId}
            value={other}
            onChange={(event) => setOther(event.target.value)}
          />
        </label>
        <datalist id={listId}>
          {(assignable.data?.results ?? [])
            .filter((user) => user.username !== ticket.assignee)
            .map((user) => (
              <option key={user.username} value={user.username}>
                {[user.full_name, user.roles.join(', ')].filter(Boolean).join(' · ')}
              </option>
            ))}
        </datalist>
        <button type="submit" disabled={assign.isPending}>
          Assign
        </button>
      </form>
      <ErrorList error={assign.error} title="Could not assign the ticket." />
    </div>
  );
}
