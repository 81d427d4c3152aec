import { formatSeconds } from '@/lib/format';

import type { CircuitSwitch } from '../api/types';
import { ConfirmDelete } from './ConfirmDelete';

interface CircuitSwitchesTableProps {
  switches: CircuitSwitch[];
  /** Given to planners and admins: an Edit button per switch. */
  onEdit?: (circuitSwitch: CircuitSwitch) => void;
  /** Given to planners and admins: a Delete button per switch, asking first. */
  onDelete?: (circuitSwitch: CircuitSwitch) => Promise<unknown>;
}

function unavailableText(circuitSwitch: CircuitSwitch): string {
  const down = circuitSwitch.attachments.filter((a) => a.unavailable.length > 0);
  if (down.length === 0) return '—';
  return down
    .map((a) => `${a.tor_name} (${a.unavailable.map((u) => u.reason.replace('_', ' ')).join(', ')})`)
    .join('; ');
}

export function CircuitSwitchesTable({ switches, onEdit, onDelete }: CircuitSwitchesTableProps) {
  return (
    <table className="data-table" data-testid="circuit-switches">
      <caption className="visually-hidden">Optical circuit switches of the fabric</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Zone</th>
          <th scope="col" className="numeric">
            Racks
          </th>
          <th scope="col" className="numeric">
            Ports available / attached / total
          </th>
          <th scope="col" className="numeric">
            Dark time
          </th>
          <th scope="col" className="numeric">
            Circuit capacity
          </th>
          <th scope="col">Unavailable ports</th>
          {onEdit || onDelete ? <th scope="col">Actions</th> : null}
        </tr>
      </thead>
      <tbody>
        {switches.map((cs) => (
          <tr key={cs.id} data-testid="circuit-switch-row">
            <th scope="row">{cs.name}</th>
            <td>{cs.zone || '—'}</td>
            <td className="numeric">{cs.attachments.length}</td>
            <td className="numeric">
              {cs.ports_available} / {cs.ports_attached} / {cs.port_count}
            </td>
            <td className="numeric">{formatSeconds(cs.dark_time_s)}</td>
            <td className="numeric">{cs.capacity_gbps} Gb/s</td>
            <td>{unavailableText(cs)}</td>
            {onEdit || onDelete ? (
              <td>
                {onEdit ? (
                  <button type="button" onClick={() => onEdit(cs)}>
                    Edit
                  </button>
                ) : null}{' '}
                {onDelete ? (
                  <ConfirmDelete
                    what={`circuit switch “${cs.name}”`}
                    consequence="Its attachments go with it; schedules already run keep their results."
                    onDelete={() => onDelete(cs)}
                  />
                ) : null}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
