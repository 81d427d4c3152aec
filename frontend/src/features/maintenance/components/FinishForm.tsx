import { useState } from 'react';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { ErrorList } from '@/components/ErrorList';

import type { Outcome, WorkOrderDetail } from '../api/types';
import type { useFinishWorkOrder } from '../api/useFinishWorkOrder';

const OUTCOMES: { value: Outcome; label: string; hint: string }[] = [
  {
    value: 'repaired',
    label: 'Repaired',
    hint: 'The action is recorded on each ticket; its links are enabled and watched for clean polls, the rest of the footprint comes back and restored links go back to disabled.',
  },
  {
    value: 'not_repaired',
    label: 'Not repaired',
    hint: 'Everything goes back as before the start; the tickets stay in progress and the order can be started again.',
  },
];

/** "Finish" on an order in progress: repaired or not, with notes. */
export function FinishForm({
  order,
  finish,
}: {
  order: WorkOrderDetail;
  finish: ReturnType<typeof useFinishWorkOrder>;
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [notes, setNotes] = useState('');
  return (
    <form
      className="action-block stacked-form"
      aria-label="Finish the work order"
      onSubmit={(event) => {
        event.preventDefault();
        if (outcome) finish.mutate({ outcome, notes });
      }}
    >
      <ChoiceFieldset
        legend="How did it go?"
        name={`outcome-${order.id}`}
        options={OUTCOMES.map((choice) => ({ value: choice.value, label: choice.label }))}
        value={outcome}
        onChange={setOutcome}
        className="action-choices"
      />
      {outcome ? (
        <p className="muted" data-testid="outcome-hint">
          {OUTCOMES.find((choice) => choice.value === outcome)?.hint}
        </p>
      ) : null}
      <label>
        Notes (what you found, parts used)
        <textarea rows={3} value={notes} maxLength={2000} onChange={(event) => setNotes(event.target.value)} />
      </label>
      <ErrorList error={finish.error} title="Could not finish the work order." />
      <button type="submit" className="primary" disabled={!outcome || finish.isPending}>
        {finish.isPending ? 'Finishing…' : 'Finish'}
      </button>
    </form>
  );
}
