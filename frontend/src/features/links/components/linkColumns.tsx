import { Link } from 'react-router';

import { HealthBadge } from '@/components/HealthBadge';
import type { TableColumn } from '@/components/table';
import { crossingText } from '@/features/forecasts';
import { SwitchName } from '@/features/switches';
import { formatMeters } from '@/lib/format/number';
import { formatReason } from '@/lib/format';

import type { FabricLink } from '../api/types';
import { FlappingBadge } from './FlappingBadge';

function formatOptional(value: number | string | null, suffix = ''): string {
  return value === null || value === '' ? '—' : `${value}${suffix}`;
}

/** The links list's columns; `fabricNames` names a fabric id. */
export function linkColumns(fabricNames: Map<number, string>): TableColumn<FabricLink>[] {
  return [
    {
      key: 'fabric',
      label: 'Fabric',
      sortField: 'fabric',
      className: 'nowrap',
      cell: (link) => fabricNames.get(link.fabric) ?? link.fabric,
    },
    {
      key: 'a_end',
      label: 'A end',
      sortField: 'a_switch__name',
      required: true,
      // The A end names the link: a phone card's title (components/card.css).
      className: 'card-title',
      // The A end names the link: it opens the link page with its telemetry.
      cell: (link) => (
        <Link to={`/links/${link.id}`}>
          {link.a_switch_name} <span className="port">{link.a_port}</span>
        </Link>
      ),
    },
    {
      key: 'z_end',
      label: 'Z end',
      sortField: 'z_switch__name',
      // The far switch's name opens its page (the A end's opens the link).
      cell: (link) => (
        <>
          <SwitchName id={link.z_switch} name={link.z_switch_name} /> <span className="port">{link.z_port}</span>
        </>
      ),
    },
    {
      key: 'a_rack',
      label: 'A rack',
      sortField: 'a_switch__rack',
      className: 'nowrap',
      cell: (link) => link.a_rack || <span className="muted">not recorded</span>,
    },
    {
      key: 'z_rack',
      label: 'Z rack',
      sortField: 'z_switch__rack',
      className: 'nowrap',
      cell: (link) => link.z_rack || <span className="muted">not recorded</span>,
    },
    {
      key: 'health',
      label: 'Health',
      sortField: 'health',
      cell: (link) => (
        <>
          <HealthBadge health={link.health} />
          {link.rx_low ? <span className="badge badge-rx-low">Rx low</span> : null}
        </>
      ),
    },
    {
      key: 'at_risk',
      label: 'At risk',
      sortField: 'forecast__crossing_at',
      cell: (link) =>
        link.forecast?.at_risk ? (
          <span data-testid="link-at-risk">
            <span className="badge badge-at-risk">At risk</span> {crossingText(link.forecast, new Date())}
          </span>
        ) : (
          // Said, not left blank: "no" as Flapping says it (the CSV writes the same).
          <span className="muted">no</span>
        ),
    },
    {
      key: 'length',
      label: 'Length',
      sortField: 'length_m',
      numeric: true,
      cell: (link) => formatMeters(link.length_m),
    },
    {
      key: 'speed',
      label: 'Speed (Gb/s)',
      sortField: 'speed_gbps',
      numeric: true,
      cell: (link) => formatOptional(link.speed_gbps),
    },
    { key: 'fiber', label: 'Fiber', sortField: 'fiber', cell: (link) => formatOptional(link.fiber) },
    {
      key: 'admin_state',
      label: 'Admin state',
      sortField: 'admin_state',
      cell: (link) => (
        <>
          <span className={`badge badge-${link.admin_state}`}>{link.admin_state}</span>
          {link.admin_reason ? <span className="reason"> {formatReason(link.admin_reason)}</span> : null}
        </>
      ),
    },
    {
      key: 'oper_state',
      label: 'Oper state',
      sortField: 'oper_state',
      cell: (link) => (
        <>
          <span className={`badge badge-${link.oper_state}`}>{link.oper_state}</span>
          {link.flapping ? <FlappingBadge /> : null}
        </>
      ),
    },
  ];
}

export const LINK_COLUMN_KEYS = linkColumns(new Map()).map((column) => column.key);
export const LINK_SORT_FIELDS = linkColumns(new Map()).flatMap((column) => column.sortField ?? []);
