import { formatCount, formatSeconds } from '@/lib/format';
import { formatTime } from '@/lib/format';

import type { Demand } from '../api/types';
import { formatBytes } from '../scheduleFormat';
import { ConfirmDelete } from './ConfirmDelete';

interface DemandsTableProps {
  demands: Demand[];
  shown: number | null;
  onShow: (demand: Demand | null) => void;
  /** Given to planners, operators and admins: a Delete button per demand, asking first. */
  onDelete?: (demand: Demand) => Promise<unknown>;
}

export function DemandsTable({ demands, shown, onShow, onDelete }: DemandsTableProps) {
  return (
    <table className="data-table" data-testid="demands">
      <caption className="visually-hidden">Uploaded demand series</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="numeric">
            Windows
          </th>
          <th scope="col" className="numeric">
            Rows
          </th>
          <th scope="col" className="numeric">
            Racks
          </th>
          <th scope="col" className="numeric">
            Total
          </th>
          <th scope="col">Uploaded</th>
          <th scope="col">Heat map</th>
          {onDelete ? <th scope="col">Actions</th> : null}
        </tr>
      </thead>
      <tbody>
        {demands.map((demand) => (
          <tr key={demand.id} data-testid="demand-row">
            <th scope="row">
              {demand.name}
              {demand.description ? <span className="muted"> — {demand.description}</span> : null}
            </th>
            <td className="numeric">
              {formatCount(demand.window_count)} × {formatSeconds(demand.window_s)}
            </td>
            <td className="numeric">{formatCount(demand.row_count)}</td>
            <td className="numeric">{formatCount(demand.rack_count)}</td>
            <td className="numeric">{formatBytes(demand.total_bytes)}</td>
            <td>
              {formatTime(demand.created)}
              {demand.uploaded_by ? ` by ${demand.uploaded_by}` : ''}
            </td>
            <td>
              <button
                type="button"
                aria-pressed={shown === demand.id}
                onClick={() => onShow(shown === demand.id ? null : demand)}
              >
                {shown === demand.id ? 'Hide' : 'Show'}
              </button>
            </td>
            {onDelete ? (
              <td>
                <ConfirmDelete
                  what={`demand “${demand.name}”`}
                  consequence="Its windows go with it; schedules already run keep their results."
                  onDelete={() => onDelete(demand)}
                />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
