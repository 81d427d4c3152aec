import { formatTime } from '@/lib/format';

import type { CorruptionEvent } from '../api/types';
import { formatLossRate } from '@/lib/format/number';

import { DIRECTION_LABEL } from './lossChart';

/** Episodes of corruption on one link, newest first: when each began, how bad it got, whether it ended. */
export function CorruptionEventsTable({ events }: { events: CorruptionEvent[] }) {
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="corruption-events">
        <caption className="visually-hidden">Corruption events</caption>
        <thead>
          <tr>
            <th scope="col">Direction</th>
            <th scope="col">First seen</th>
            <th scope="col" className="numeric">
              Rate at onset
            </th>
            <th scope="col" className="numeric">
              Peak rate
            </th>
            <th scope="col" className="numeric">
              Last rate
            </th>
            <th scope="col">Last seen</th>
            <th scope="col">Ended</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id} data-testid="corruption-event" data-direction={event.direction}>
              <th scope="row">{DIRECTION_LABEL[event.direction]}</th>
              <td>{formatTime(event.first_seen)}</td>
              <td className="numeric">{formatLossRate(event.rate)}</td>
              <td className="numeric">{formatLossRate(event.peak_rate)}</td>
              <td className="numeric">{formatLossRate(event.last_rate)}</td>
              <td>{formatTime(event.last_seen)}</td>
              <td>
                {event.ended_at ? formatTime(event.ended_at) : <span className="badge badge-ongoing">ongoing</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
