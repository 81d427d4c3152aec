/** The circuit-switch form: fields as typed and the ToRs' optical ports, turned into a create/update body. */
import { type FormCheck, formCheck } from '@/lib/formCheck';
import { lengthHint } from '@/lib/format/length';

import type { AttachmentInput, CircuitSwitch, CircuitSwitchInput } from './api/types';

export interface SwitchFormState {
  name: string;
  zone: string;
  portCount: string;
  darkTimeMs: string;
  capacityGbps: string;
  description: string;
  /** Create only: attach every ToR of the fabric with one port (the server does it). */
  attachAll: boolean;
  /** Optical ports per ToR id as typed ('' or '0': not attached) and its links' ids ("40, 41"). */
  ports: Record<number, string>;
  links: Record<number, string>;
}

export const EMPTY_SWITCH_FORM: SwitchFormState = {
  name: '',
  zone: '',
  portCount: '',
  darkTimeMs: '10',
  capacityGbps: '10',
  description: '',
  attachAll: true,
  ports: {},
  links: {},
};

/** The server's bounds of a circuit's capacity (circuits' MAX_CIRCUIT_CAPACITY_GBPS): above 0, up to 100 Tb/s. */
export const MAX_CAPACITY_GBPS = 100_000;
/** The model's name and zone columns (CharField max_length=100). */
export const SWITCH_NAME_MAX = 100;
export const SWITCH_ZONE_MAX = 100;
/** The serializer's bound of dark_time_s (max_value 10 s). */
export const MAX_DARK_TIME_MS = 10_000;
/** The fields a problem can be said at: the server's names, so its 400 lands at the same fields. */
export const SWITCH_FIELDS = ['name', 'zone', 'port_count', 'dark_time_s', 'capacity_gbps', 'description'] as const;
export type SwitchField = (typeof SWITCH_FIELDS)[number];
export const CAPACITY_HINT = 'The circuit capacity must be a number of Gb/s above 0 and up to 100,000.';

export function switchFormFrom(circuitSwitch: CircuitSwitch): SwitchFormState {
  return {
    name: circuitSwitch.name,
    zone: circuitSwitch.zone,
    portCount: String(circuitSwitch.port_count),
    darkTimeMs: String(Number((circuitSwitch.dark_time_s * 1000).toPrecision(6))),
    capacityGbps: String(circuitSwitch.capacity_gbps),
    description: circuitSwitch.description,
    attachAll: false,
    ports: Object.fromEntries(circuitSwitch.attachments.map((a) => [a.tor, String(a.optical_ports)])),
    links: Object.fromEntries(circuitSwitch.attachments.map((a) => [a.tor, a.links.join(', ')])),
  };
}

/**
 * The body to send, or the problems found in the browser. The server checks again (ports against
 * attachments, ToRs of the fabric, links on their ToR) and its 400 lists every problem.
 */
export function buildSwitchInput(
  form: SwitchFormState,
  fabric: number,
  tors: readonly { id: number; name: string }[],
  creating: boolean,
): FormCheck<SwitchField> & { body: CircuitSwitchInput | null } {
  const check = formCheck<SwitchField>();
  const errors = check.errors;
  const name = lengthHint(form.name.trim().length, SWITCH_NAME_MAX);
  if (form.name.trim() === '') check.add('Give the circuit switch a name.', 'name');
  else if (name.over) check.add(`Name: ${name.text}`, 'name');
  const zone = lengthHint(form.zone.trim().length, SWITCH_ZONE_MAX);
  if (zone.over) check.add(`Zone: ${zone.text}`, 'zone');
  const darkMs = Number(form.darkTimeMs);
  if (form.darkTimeMs.trim() === '' || !Number.isFinite(darkMs) || darkMs < 0 || darkMs > MAX_DARK_TIME_MS)
    check.add('The dark time must be a number of ms from 0 to 10,000.', 'dark_time_s');
  const capacity = Number(form.capacityGbps);
  if (form.capacityGbps.trim() === '' || !Number.isFinite(capacity) || capacity <= 0 || capacity > MAX_CAPACITY_GBPS)
    check.add(CAPACITY_HINT, 'capacity_gbps');

  const useAll = creating && form.attachAll;
  const attachments: AttachmentInput[] = [];
  if (!useAll) {
    for (const tor of tors) {
      const text = (form.ports[tor.id] ?? '').trim();
      if (text === '' || text === '0') continue;
      const ports = Number(text);
      if (!Number.isSafeInteger(ports) || ports < 1) {
        check.add(`${tor.name}: optical ports must be a whole number ≥ 1 (or empty when not attached).`);
        continue;
      }
      const linkText = (form.links[tor.id] ?? '').trim();
      const linkParts = linkText === '' ? [] : linkText.split(/[\s,;]+/).filter(Boolean);
      const links = linkParts.map(Number);
      if (links.some((link) => !Number.isSafeInteger(link) || link < 1)) {
        check.add(`${tor.name}: links must be link ids separated by commas.`);
        continue;
      }
      attachments.push({ tor: tor.id, optical_ports: ports, links });
    }
  }
  const attached = useAll ? tors.length : attachments.reduce((sum, a) => sum + a.optical_ports, 0);
  let portCount = Number(form.portCount);
  if (form.portCount.trim() === '') {
    // Blank: exactly as many ports as attached.
    portCount = attached;
    if (attached === 0) check.add('Give the port count or attach at least one ToR.', 'port_count');
  } else if (!Number.isSafeInteger(portCount) || portCount < 1) {
    check.add('The port count must be a whole number ≥ 1.', 'port_count');
  } else if (portCount < attached) {
    check.add(`The switch has ${portCount} ports but the attachments need ${attached}.`, 'port_count');
  }
  if (errors.length > 0) return { body: null, errors, byField: check.byField };
  return {
    errors,
    byField: check.byField,
    body: {
      fabric,
      name: form.name.trim(),
      zone: form.zone.trim(),
      port_count: portCount,
      dark_time_s: darkMs / 1000,
      capacity_gbps: capacity,
      description: form.description,
      ...(useAll ? { attach_all_tors: true } : { attachments }),
    },
  };
}
