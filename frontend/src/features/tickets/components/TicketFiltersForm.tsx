import { useState } from 'react';

import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';

import {
  MINE,
  TICKET_KIND_LABELS,
  TICKET_STATE_LABELS,
  TICKET_STATES,
  toggleState,
  type TicketQueueFilters,
} from '../ticketQueue';

interface TicketFiltersFormProps {
  filters: TicketQueueFilters;
  fabrics: FabricChoice[];
  onChange: (filters: TicketQueueFilters) => void;
}

type AssigneeChoice = 'anyone' | 'mine' | 'unassigned' | 'user';

function assigneeChoice(filters: TicketQueueFilters): AssigneeChoice {
  if (filters.unassigned) return 'unassigned';
  if (!filters.assignee) return 'anyone';
  return filters.assignee === MINE ? 'mine' : 'user';
}

export function TicketFiltersForm({ filters, fabrics, onChange }: TicketFiltersFormProps) {
  const choice = assigneeChoice(filters);
  // Typed names and pods apply on Enter or leaving the field, not on every keystroke.
  const [username, setUsername] = useState(choice === 'user' ? (filters.assignee ?? '') : '');
  const [byUsername, setByUsername] = useState(choice === 'user');
  const [pod, setPod] = useState(filters.pod === undefined ? '' : String(filters.pod));

  const applyPod = () => {
    const parsed = Number(pod);
    const next = pod.trim() === '' || !Number.isInteger(parsed) || parsed < 0 ? undefined : parsed;
    if (next !== filters.pod) onChange({ ...filters, pod: next });
    if (next === undefined) setPod('');
  };
  const applyUsername = () => {
    const trimmed = username.trim();
    if (trimmed && trimmed !== filters.assignee) onChange({ ...filters, assignee: trimmed, unassigned: undefined });
  };

  return (
    <form
      className="filters ticket-filters"
      aria-label="Ticket filters"
      onSubmit={(event) => {
        event.preventDefault();
        applyPod();
        if (byUsername) applyUsername();
      }}
    >
      <FabricSelect
        fabrics={fabrics}
        emptyOption="All fabrics"
        value={filters.fabric}
        onChange={(fabric) => onChange({ ...filters, fabric: fabric ? Number(fabric) : undefined })}
      />
      <label>
        Pod
        <input
          type="number"
          min={0}
          inputMode="numeric"
          placeholder="any"
          className="pod-input"
          value={pod}
          onChange={(event) => setPod(event.target.value)}
          onBlur={applyPod}
        />
      </label>
      <label>
        Assignee
        <select
          value={byUsername ? 'user' : choice}
          onChange={(event) => {
            const next = event.target.value as AssigneeChoice;
            setByUsername(next === 'user');
            const rest = { ...filters, unassigned: undefined };
            if (next === 'anyone') onChange({ ...rest, assignee: undefined });
            else if (next === 'mine') onChange({ ...rest, assignee: MINE });
            else if (next === 'unassigned') onChange({ ...rest, assignee: undefined, unassigned: true });
            else if (username.trim()) onChange({ ...rest, assignee: username.trim() });
          }}
        >
          <option value="anyone">Anyone</option>
          <option value="mine">Mine</option>
          <option value="unassigned">Nobody (unassigned)</option>
          <option value="user">By username…</option>
        </select>
      </label>
      {byUsername ? (
        <label>
          Username
          <input
            type="text"
            autoComplete="off"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            onBlur={applyUsername}
          />
        </label>
      ) : null}
      <label>
        Kind
        <select
          value={filters.kind ?? ''}
          onChange={(event) =>
            onChange({ ...filters, kind: (event.target.value || undefined) as TicketQueueFilters['kind'] })
          }
        >
          <option value="">Repair and preventive</option>
          {Object.entries(TICKET_KIND_LABELS).map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="filter-group">
        <legend>State</legend>
        {TICKET_STATES.map((state) => (
          <label key={state} className="check">
            <input
              type="checkbox"
              checked={filters.states.includes(state)}
              onChange={(event) =>
                onChange({ ...filters, states: toggleState(filters.states, state, event.target.checked) })
              }
            />
            {TICKET_STATE_LABELS[state]}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="visually-hidden">
        Apply filters
      </button>
    </form>
  );
}
