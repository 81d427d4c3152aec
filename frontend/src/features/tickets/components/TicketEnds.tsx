import type { Side } from '@/features/telemetry';
import { formatTime } from '@/lib/format';

import type { LinkEnd } from '../api/types';

interface TicketEndsProps {
  ends: LinkEnd[];
  /** The end whose receiver counts the errors, per the current recommendation (a preventive step's: the end to act on). */
  receivingEnd?: Side;
  /** The badge on that end: a preventive step has no errors yet, only an end to act on. */
  receivingLabel?: string;
}

function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** Both ends of the link as a technician finds them on the floor: switch, port, rack, optic. */
export function TicketEnds({ ends, receivingEnd, receivingLabel = 'receives the errors' }: TicketEndsProps) {
  return (
    <div className="ticket-ends" data-testid="ticket-ends">
      {ends.map((end) => (
        <section
          key={end.side}
          className="ticket-end"
          aria-label={`${end.side.toUpperCase()} end`}
          data-testid={`ticket-end-${end.side}`}
        >
          <h3>
            {end.side.toUpperCase()} end{end.side === 'a' ? ' (lower tier)' : ''}
            {receivingEnd === end.side ? <span className="badge badge-receiving">{receivingLabel}</span> : null}
          </h3>
          <dl>
            <div>
              <dt>Switch</dt>
              <dd>{end.switch}</dd>
            </div>
            <div>
              <dt>Port</dt>
              <dd className="port">{end.port}</dd>
            </div>
            <div>
              <dt>Rack / location</dt>
              <dd>{orDash(end.rack)}</dd>
            </div>
            <div>
              <dt>Pod</dt>
              <dd>{orDash(end.pod)}</dd>
            </div>
            <div>
              <dt>Transceiver</dt>
              <dd>{orDash(end.transceiver_model)}</dd>
            </div>
            <div>
              <dt>Serial</dt>
              <dd>{orDash(end.transceiver_serial)}</dd>
            </div>
            <div>
              <dt>Last reseated</dt>
              <dd>{end.last_reseated_at ? formatTime(end.last_reseated_at) : 'never recorded'}</dd>
            </div>
          </dl>
        </section>
      ))}
    </div>
  );
}
