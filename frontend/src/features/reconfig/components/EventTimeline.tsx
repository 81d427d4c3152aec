import type { PlannedEvent } from '../api/types';
import { describeEvent, EVENT_LABEL } from '../sharebackupData';

interface EventTimelineProps {
  events: PlannedEvent[];
  /** The selected event's index; -1 for the fabric before any event. */
  selected: number;
  onSelect: (index: number) => void;
}

/** The event log in order, after the starting state; a click shows what the planner did for that event. */
export function EventTimeline({ events, selected, onSelect }: EventTimelineProps) {
  return (
    <ol className="event-timeline" aria-label="Event timeline" data-testid="event-timeline">
      <li>
        <button
          type="button"
          className="event-chip event-start"
          aria-pressed={selected === -1}
          onClick={() => onSelect(-1)}
          data-testid="timeline-start"
        >
          <span className="event-type">Start</span>
          <span className="event-subject">before any event</span>
        </button>
      </li>
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
