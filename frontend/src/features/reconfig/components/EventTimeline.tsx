import type { PlannedEvent } from '../api/types';
import { describeEvent, EVENT_LABEL } from '../sharebackupData';

interface EventTimelineProps {
  events: PlannedEvent[];
  selected: number;
  onSelect: (index: number) => void;
}

/** The event log in order; a click shows what the planner did for that event. */
export function EventTimeline({ events, selected, onSelect }: EventTimelineProps) {
  return (
    <ol className="event-timeline" aria-label="Event timeline" data-testid="event-timeline">
      {events.map((planned) => (
        <li key={planned.index}>
          <button
            type="button"
            className={`event-chip event-${planned.event.type}${planned.status === 'degraded' ? ' event-degraded' : ''}`}
            aria-pressed={planned.index === selected}
            onClick={() => onSelect(planned.index)}
            data-testid="timeline-event"
            title={describeEvent(planned.event)}
          >
            <span className="event-index">#{planned.index}</span>
            <span className="event-type">{EVENT_LABEL[planned.event.type]}</span>
            <span className="event-subject">{eventSubject(planned)}</span>
            {planned.status === 'degraded' ? <span className="badge badge-degraded">DEGRADED</span> : null}
          </button>
        </li>
      ))}
    </ol>
  );
}

function eventSubject({ event }: PlannedEvent): string {
  if (event.type === 'link_down') return `${event.a} – ${event.b}`;
  if (event.type === 'diagnosis_result') return `${event.switch} ${event.healthy ? 'healthy' : 'faulty'}`;
  return event.switch;
}
