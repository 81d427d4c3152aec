import { HealthBadge } from '@/components/HealthBadge';
import { formatTime } from '@/lib/format';

import type { Direction, DirectionSignature, LinkStatus } from '../api/types';
import { formatLossRate } from '@/lib/format/number';

import { DIRECTION_LABEL } from './lossChart';
import { signatureDetail } from './signatureDetail';

interface DirectionStatusTableProps {
  status: LinkStatus;
  /** Corruption-versus-congestion statistics over the chart's range. */
  signatures?: Record<Direction, DirectionSignature>;
  /** Switch names of the two ends, to say which way each direction goes. */
  switchNames: { a: string; z: string };
}

/** The newest loss rates and health of each direction. */
export function DirectionStatusTable({ status, signatures, switchNames }: DirectionStatusTableProps) {
  const directions: { key: Direction; from: string; to: string }[] = [
    { key: 'a_to_z', from: switchNames.a, to: switchNames.z },
    { key: 'z_to_a', from: switchNames.z, to: switchNames.a },
  ];
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="direction-status">
        <caption>Loss per direction, newest window</caption>
        <thead>
          <tr>
            <th scope="col">Direction</th>
            <th scope="col">Health</th>
            <th scope="col" className="numeric">
              Corruption (fraction)
            </th>
            <th scope="col" className="numeric">
              Congestion (fraction)
            </th>
            <th scope="col">Health since</th>
            <th scope="col">Loss signature (chart range)</th>
          </tr>
        </thead>
        <tbody>
          {directions.map(({ key, from, to }) => {
            const direction = status.directions[key];
            return (
              <tr key={key} data-direction={key}>
                <th scope="row">
                  {DIRECTION_LABEL[key]}{' '}
                  <span className="muted">
                    ({from} → {to})
                  </span>
                </th>
                <td>
                  <HealthBadge health={direction.health ?? 'unknown'} />
                </td>
                <td className="numeric">{formatLossRate(direction.corruption_rate)}</td>
                <td className="numeric">{formatLossRate(direction.congestion_rate)}</td>
                <td>{formatTime(direction.health_since)}</td>
                <td data-testid={`signature-${key}`}>
                  {signatures ? (
                    <>
                      {signatures[key].verdict} <span className="muted">{signatureDetail(signatures[key])}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
