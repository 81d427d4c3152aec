import { formatTimeWithAge } from '@/lib/format';

import type { PowerClass, SideStatus, ThresholdField } from '../api/types';
import { formatDbm } from './powerChart';

const THRESHOLD_ROWS: { field: ThresholdField; label: string }[] = [
  { field: 'input_power_lower_dbm', label: 'Rx lower' },
  { field: 'input_power_upper_dbm', label: 'Rx upper' },
  { field: 'output_power_lower_dbm', label: 'Tx lower' },
  { field: 'output_power_upper_dbm', label: 'Tx upper' },
];

function PowerClassBadge({ value, dark }: { value: PowerClass | null; dark: boolean | null }) {
  if (dark) return <span className="badge badge-class-dark">no light</span>;
  const shown = value ?? 'unknown';
  return <span className={`badge badge-class-${shown}`}>{shown}</span>;
}

function measured(value: number | null, unit: string, digits = 1): string {
  return value === null ? '—' : `${value.toFixed(digits)} ${unit}`;
}

function power(value: number | null, dark: boolean | null): string {
  if (dark) return 'no light';
  return value === null ? '—' : formatDbm(value);
}

interface SideReadingsProps {
  /** "A" or "Z". */
  sideLabel: string;
  /** Switch and port, e.g. "p0-tor0 eth2/1". */
  endName: string;
  status: SideStatus;
}

/** The newest readings of one link end, its Rx/Tx classes and the limits they were judged against. */
export function SideReadings({ sideLabel, endName, status }: SideReadingsProps) {
  const rxLanes =
    !status.rx_no_light &&
    status.input_power_min_channel_dbm !== null &&
    status.input_power_min_channel_dbm !== status.input_power_dbm
      ? `, lowest lane ${formatDbm(status.input_power_min_channel_dbm)}`
      : '';
  const txLanes =
    !status.tx_no_light &&
    status.output_power_min_channel_dbm !== null &&
    status.output_power_min_channel_dbm !== status.output_power_dbm
      ? `, lowest lane ${formatDbm(status.output_power_min_channel_dbm)}`
      : '';
  return (
    <section
      className="side-readings"
      aria-label={`${sideLabel} end ${endName}`}
      data-testid={`side-${sideLabel.toLowerCase()}`}
    >
      <h3>
        {sideLabel} end <span className="port">{endName}</span>
      </h3>
      <table className="readings-table">
        <caption className="visually-hidden">Newest readings of the {sideLabel} end</caption>
        <tbody>
          <tr>
            <th scope="row">Rx power</th>
            <td>
              {power(status.input_power_dbm, status.rx_no_light)}
              {rxLanes}
            </td>
            <td>
              <PowerClassBadge value={status.rx_class} dark={status.rx_no_light} />
            </td>
          </tr>
          <tr>
            <th scope="row">Tx power</th>
            <td>
              {power(status.output_power_dbm, status.tx_no_light)}
              {txLanes}
            </td>
            <td>
              <PowerClassBadge value={status.tx_class} dark={status.tx_no_light} />
            </td>
          </tr>
          <tr>
            <th scope="row">Laser bias</th>
            <td colSpan={2}>{measured(status.laser_bias_current_ma, 'mA')}</td>
          </tr>
          <tr>
            <th scope="row">Temperature</th>
            <td colSpan={2}>{measured(status.temperature_c, '°C')}</td>
          </tr>
          <tr>
            <th scope="row">Supply voltage</th>
            <td colSpan={2}>{measured(status.supply_voltage_v, 'V', 2)}</td>
          </tr>
          <tr>
            <th scope="row">Optics read</th>
            <td colSpan={2}>{formatTimeWithAge(status.optical_time)}</td>
          </tr>
          <tr>
            <th scope="row">Counters read</th>
            <td colSpan={2}>{formatTimeWithAge(status.counter_time)}</td>
          </tr>
        </tbody>
      </table>
      <table className="readings-table thresholds-table">
        <caption>Limits of the {sideLabel} end</caption>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">Value</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {THRESHOLD_ROWS.map(({ field, label }) => {
            const limit = status.thresholds[field];
            return (
              <tr key={field} data-testid={`threshold-${field}`}>
                <th scope="row">{label}</th>
                <td>{limit.value === null ? '—' : formatDbm(limit.value)}</td>
                <td>
                  {limit.provenance ? (
                    <span className={`badge badge-provenance-${limit.provenance}`}>{limit.provenance}</span>
                  ) : (
                    <span className="muted">none</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
