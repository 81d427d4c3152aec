import { FabricSelect, type FabricChoice } from '@/components/FabricSelect';

import type { WorkOrderState } from '../api/types';
import { CURRENT_STATES, STATE_LABELS, WORK_ORDER_STATES, type WorkOrderFilters } from '../workOrders';

const STATE_CHOICES: { value: string; label: string; states: WorkOrderState[] }[] = [
  { value: 'current', label: 'Open or in progress', states: [...CURRENT_STATES] },
  ...WORK_ORDER_STATES.map((state) => ({ value: state, label: STATE_LABELS[state], states: [state] })),
  { value: 'all', label: 'Every state', states: [] },
];

function choiceOf(states: readonly WorkOrderState[]): string {
  const found = STATE_CHOICES.find(
    (choice) => choice.states.length === states.length && choice.states.every((state) => states.includes(state)),
  );
  return found?.value ?? 'current';
}

/** Fabric and state: each change applies at once (the list follows the URL). */
export function WorkOrderFiltersForm({
  filters,
  fabrics,
  onChange,
}: {
  filters: WorkOrderFilters;
  fabrics: readonly FabricChoice[];
  onChange: (next: WorkOrderFilters) => void;
}) {
  return (
    <form className="filters" aria-label="Filter work orders" onSubmit={(event) => event.preventDefault()}>
      <FabricSelect
        fabrics={fabrics}
        value={filters.fabric}
        emptyOption="All fabrics"
        onChange={(value) => onChange({ ...filters, fabric: value === '' ? undefined : Number(value) })}
      />
      <label>
        State
        <select
          value={choiceOf(filters.states)}
          onChange={(event) =>
            onChange({
              ...filters,
              states: [...(STATE_CHOICES.find((choice) => choice.value === event.target.value)?.states ?? [])],
            })
          }
        >
          {STATE_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
