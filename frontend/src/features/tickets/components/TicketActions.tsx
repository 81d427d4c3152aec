import { useState } from 'react';
import { Link } from 'react-router';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { ErrorList } from '@/components/ErrorList';
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
        <RecordActionForm key={ticket.steps.length} ticket={ticket} record={record} />
      ) : null}
      {ticket.state === 'awaiting_validation' ? (
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

function RecordActionForm({ ticket, record }: { ticket: TicketDetail; record: ReturnType<typeof useRecordAction> }) {
  const recommended = ticket.recommendation?.action;
  const [action, setAction] = useState<RepairAction | ''>(recommended ?? '');
  const [notes, setNotes] = useState('');

  return (
    <form
      className="action-block stacked-form"
      aria-label="Record the action taken"
      onSubmit={(event) => {
        event.preventDefault();
        if (action) record.mutate({ action_taken: action, notes });
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
      <label>
        Notes (what you found, parts used)
        <textarea rows={3} value={notes} onChange={(event) => setNotes(event.target.value)} />
      </label>
      {action && recommended && action !== recommended ? (
        <p className="notice" role="note">
          This differs from the recommendation; it is recorded as not followed.
        </p>
      ) : null}
      <ErrorList error={record.error} title="Could not record the action." />
      <button type="submit" className="primary" disabled={!action || record.isPending}>
        {record.isPending ? 'Recording…' : 'Record action and re-enable the link'}
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
