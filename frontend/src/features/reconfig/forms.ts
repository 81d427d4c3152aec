/** The server plans at most this many events (its result must stay under 48 MiB). */
export const MAX_EVENTS = 500;

/**
 * The reconfig forms' text fields turned into request bodies, checked against the server's limits
 * (/work/briefs/contract-reconfig.md) so a typo is answered before anything is sent. The server
 * checks again and its 400 lists every problem.
 */
import { readTextUpload, type TextUpload } from '@/lib/textUpload';

import {
  type CostsRequest,
  type CountersParam,
  type EventsParam,
  type FabricRackSetRef,
  isFabricRackSet,
  type LarryParams,
  type LarryPolicy,
  type RackSetParam,
  type RackSetWithNames,
  type ShareBackupParams,
  type SizeRequest,
} from './api/types';
import { parseEventsFile } from './sharebackupData';

export interface Built<T> {
  value: T | null;
  errors: string[];
}

/** An uploaded file's name and text (read in the browser); `problem` when it is not text. */
export type Upload = TextUpload;

function integer(text: string, label: string, min: number, max: number, errors: string[]): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    errors.push(`${label} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

function positive(text: string, label: string, max: number, errors: string[]): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value > max) {
    errors.push(`${label} must be a number above 0${Number.isFinite(max) ? ` and at most ${max}` : ''}.`);
  }
  return value;
}

function between(text: string, label: string, min: number, max: number, errors: string[]): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    errors.push(`${label} must be a number from ${min} to ${max}.`);
  }
  return value;
}

function nonNegative(text: string, label: string, errors: string[]): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < 0)
    errors.push(`${label} must be a number of at least 0.`);
  return value;
}

function evenK(text: string, errors: string[]): number {
  const k = integer(text, 'k', 2, 64, errors);
  if (Number.isInteger(k) && k % 2 !== 0) errors.push('k must be even.');
  return k;
}

// --- ShareBackup plan --------------------------------------------------------------------------

export interface PlanFormState {
  /** 'abstract': a k-ary fat tree of k and pods; 'fabric': the stored `fabric`, which the server reads. */
  tree: 'abstract' | 'fabric';
  fabric: string;
  k: string;
  pods: string;
  backups: string;
  reconfigMs: string;
  source: 'synthetic' | 'uploaded';
  length: string;
  seed: string;
  upload: Upload | null;
}

export const INITIAL_PLAN_FORM: PlanFormState = {
  tree: 'abstract',
  fabric: '',
  k: '4',
  pods: '2',
  backups: '1',
  reconfigMs: '0.5',
  source: 'synthetic',
  length: '12',
  seed: '0',
  upload: null,
};

/** The plan's params and, for a stored fabric, its id (the server reads k and pods from it). */
export function buildPlanParams(form: PlanFormState): Built<{ params: ShareBackupParams; fabric: number | null }> {
  const errors: string[] = [];
  const stored = form.tree === 'fabric';
  if (stored && form.fabric === '') errors.push('Choose the stored fabric to plan.');
  const k = stored ? undefined : evenK(form.k, errors);
  const pods = stored
    ? undefined
    : integer(form.pods, 'Pods', 1, k !== undefined && Number.isInteger(k) && k >= 2 ? k : 64, errors);
  const backups = integer(form.backups, 'Backups per group', 0, 8, errors);
  const reconfigMs = positive(form.reconfigMs, 'Circuit switching time', 1000, errors);
  let events: EventsParam | null = null;
  if (form.source === 'synthetic') {
    const length = integer(form.length, 'Events', 1, MAX_EVENTS, errors);
    const seed = integer(form.seed, 'Seed', 0, Number.MAX_SAFE_INTEGER, errors);
    events = { source: 'synthetic', length, seed };
  } else if (!form.upload) {
    errors.push('Choose an events file (JSON).');
  } else if (form.upload.problem) {
    errors.push(form.upload.problem);
  } else {
    const parsed = parseEventsFile(form.upload.text);
    errors.push(...parsed.errors);
    if (parsed.events && parsed.events.length > MAX_EVENTS) {
      errors.push(`The events file holds ${parsed.events.length} events; at most ${MAX_EVENTS} are planned at once.`);
    }
    events = { source: 'uploaded', name: form.upload.name, json: form.upload.text };
  }
  if (errors.length > 0 || !events) return { value: null, errors };
  const tree = stored ? {} : { k, pods };
  return {
    value: {
      params: { ...tree, backups, reconfig_ms: reconfigMs, events },
      fabric: stored ? Number(form.fabric) : null,
    },
    errors,
  };
}

// --- Backup-pool sizing ------------------------------------------------------------------------

export interface SizeFormState {
  k: string;
  pods: string;
  target: string;
  mtbfHours: string;
  mttrHours: string;
  /** A fabric id, or '' to use the given MTBF/MTTR. */
  fabric: string;
  windowDays: string;
  monteCarlo: boolean;
  seed: string;
  horizonHours: string;
}

export const INITIAL_SIZE_FORM: SizeFormState = {
  k: '16',
  pods: '16',
  target: '1e-6',
  mtbfHours: '50000',
  mttrHours: '24',
  fabric: '',
  windowDays: '365',
  monteCarlo: true,
  seed: '0',
  horizonHours: '10000000',
};

export function buildSizeRequest(form: SizeFormState): Built<SizeRequest> {
  const errors: string[] = [];
  const k = evenK(form.k, errors);
  const pods = integer(form.pods, 'Pods', 1, Number.isInteger(k) && k >= 2 ? k : 64, errors);
  const target = Number(form.target.trim());
  if (form.target.trim() === '' || !(target > 0 && target < 1)) errors.push('Target must be a probability in (0, 1).');
  const fabric = form.fabric === '' ? null : Number(form.fabric);
  // With a fabric, the given values are the fallback when it has no tickets: optional then.
  const optional = (text: string, label: string, min: number, max: number) =>
    fabric !== null && text.trim() === '' ? null : between(text, label, min, max, errors);
  const mtbf = optional(form.mtbfHours, 'MTBF (hours)', 1, 1e9);
  const mttr = optional(form.mttrHours, 'MTTR (hours)', 0.01, 1e6);
  const windowDays = integer(form.windowDays, 'Ticket window (days)', 1, 3650, errors);
  let monteCarlo: SizeRequest['monte_carlo'] = null;
  if (form.monteCarlo) {
    monteCarlo = {
      seed: integer(form.seed, 'Monte Carlo seed', 0, Number.MAX_SAFE_INTEGER, errors),
      horizon_hours: between(form.horizonHours, 'Monte Carlo horizon (hours)', 32, 1e9, errors),
    };
  }
  if (errors.length > 0) return { value: null, errors };
  return {
    value: {
      k,
      pods,
      target,
      mtbf_hours: mtbf,
      mttr_hours: mttr,
      fabric,
      window_days: windowDays,
      monte_carlo: monteCarlo,
    },
    errors,
  };
}

// --- Larry -------------------------------------------------------------------------------------

/** The two rack sets of the reference: uniform cabling, and the degraded cabling example of §2.1. */
export const RACK_SET_PRESETS: { id: string; label: string; rackSet: RackSetWithNames }[] = [
  {
    id: 'uniform',
    label: 'Uniform: 4 racks, S = 2, one cable per ToR–CS pair, R = 2',
    rackSet: {
      static_uplinks: 2,
      cables: [
        [1, 1, 1, 1],
        [1, 1, 1, 1],
        [1, 1, 1, 1],
        [1, 1, 1, 1],
      ],
      cs_uplinks: [2, 2, 2, 2],
      capacity_gbps: 100,
      excluded: [],
    },
  },
  {
    id: 'degraded',
    label: 'Degraded cabling: as uniform, with the ToR0–CS0 and ToR1–CS0 cables out',
    rackSet: {
      static_uplinks: 2,
      cables: [
        [1, 1, 1, 1],
        [1, 1, 1, 1],
        [1, 1, 1, 1],
        [1, 1, 1, 1],
      ],
      cs_uplinks: [2, 2, 2, 2],
      capacity_gbps: 100,
      excluded: [
        [0, 0],
        [1, 0],
      ],
    },
  },
];

export function rackSetText(rackSet: RackSetWithNames): string {
  return JSON.stringify(rackSet);
}

/** The rack-set document typed or uploaded; the server checks its numbers and lists every problem. */
export function parseRackSet(text: string): Built<RackSetWithNames> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { value: null, errors: [`The rack set is not JSON (${(error as Error).message}).`] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return {
      value: null,
      errors: ['The rack set must be a JSON object (static_uplinks, cables, cs_uplinks, capacity_gbps).'],
    };
  }
  const doc = data as Record<string, unknown>;
  const errors: string[] = [];
  const cables = doc.cables;
  if (!Array.isArray(cables) || cables.length === 0 || !cables.every((row) => Array.isArray(row))) {
    errors.push('cables must be a list of rows, one per rack, each with a count per circuit switch.');
  }
  for (const key of ['static_uplinks', 'capacity_gbps']) {
    if (typeof doc[key] !== 'number') errors.push(`${key} must be a number.`);
  }
  if (!Array.isArray(doc.cs_uplinks)) errors.push('cs_uplinks must be a list, one count per circuit switch.');
  return errors.length > 0 ? { value: null, errors } : { value: doc as unknown as RackSetWithNames, errors };
}

/** Racks of a rack-set document; null when unknown (none yet, or a fabric's, which the server builds). */
export function rackCount(rackSet: RackSetParam | null): number | null {
  return rackSet && !isFabricRackSet(rackSet) ? rackSet.cables.length : null;
}

export interface FabricRackSetState {
  fabric: string;
  /** Chosen circuit switch ids; none chosen means all of the fabric's. */
  circuitSwitches: number[];
}

export const INITIAL_FABRIC_RACK_SET: FabricRackSetState = { fabric: '', circuitSwitches: [] };

/** The server's reference to a stored fabric's circuit switches, or why there is none yet. */
export function buildFabricRackSet(state: FabricRackSetState): Built<FabricRackSetRef> {
  if (state.fabric === '')
    return { value: null, errors: ['Choose the fabric whose circuit switches make the rack set.'] };
  const value: FabricRackSetRef = { fabric: Number(state.fabric) };
  if (state.circuitSwitches.length > 0) value.circuit_switches = state.circuitSwitches;
  return { value, errors: [] };
}

export interface RunFormState {
  /** null: follow the rack set (a stored fabric's rack set reads that fabric's telemetry). */
  countersSource: 'uploaded' | 'telemetry' | null;
  upload: Upload | null;
  /** Telemetry: a fabric id and a window in UTC (datetime-local text, read as UTC). */
  fabric: string;
  from: string;
  to: string;
  bytesPerPacket: string;
  periodS: string;
  threshold: string;
  policy: LarryPolicy;
}

export const INITIAL_RUN_FORM: RunFormState = {
  countersSource: null,
  upload: null,
  fabric: '',
  from: '',
  to: '',
  bytesPerPacket: '1500',
  periodS: '',
  threshold: '0.85',
  policy: 'conservative',
};

/** "2026-11-22T06:00" from a datetime-local input, taken as UTC; null when it is not a time. */
function utcInstant(text: string): string | null {
  const trimmed = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(trimmed)) return null;
  const iso = `${trimmed.length === 16 ? `${trimmed}:00` : trimmed}Z`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

/** A counters file by its name: .csv as CSV (time_s,rack,ingress_bytes,egress_bytes), else JSON. */
export function countersParam(upload: Upload): CountersParam {
  return upload.name.toLowerCase().endsWith('.csv')
    ? { source: 'uploaded', name: upload.name, csv: upload.text }
    : { source: 'uploaded', name: upload.name, json: upload.text };
}

/** Where the counters come from: as chosen, else a stored fabric's rack set's telemetry, else a file. */
export function countersSource(form: RunFormState, rackSet: Built<RackSetParam>): 'uploaded' | 'telemetry' {
  return form.countersSource ?? (isFabricRackSet(rackSet.value) ? 'telemetry' : 'uploaded');
}

/** The job's params, and its fabric when the counters come from that fabric's telemetry. */
export function buildRunParams(
  form: RunFormState,
  rackSet: Built<RackSetParam>,
): Built<{ params: LarryParams; fabric: number | null }> {
  const errors = [...rackSet.errors];
  let counters: CountersParam | null = null;
  let fabric: number | null = null;
  if (countersSource(form, rackSet) === 'uploaded') {
    if (form.upload?.problem) errors.push(form.upload.problem);
    else if (form.upload) counters = countersParam(form.upload);
    else errors.push('Choose a counters file (CSV or JSON).');
  } else {
    if (isFabricRackSet(rackSet.value)) {
      // A stored fabric's rack set reads that fabric's telemetry.
      fabric = rackSet.value.fabric;
    } else {
      if (form.fabric === '') errors.push('Choose the fabric whose telemetry holds the counters.');
      else fabric = Number(form.fabric);
      if (rackSet.value && !rackSet.value.racks) {
        errors.push('The rack set needs "racks": the names of the fabric’s ToRs, one per rack.');
      }
    }
    // Empty From or To: left out, and the server takes the counters' first or last sample.
    const from = form.from.trim() === '' ? undefined : utcInstant(form.from);
    const to = form.to.trim() === '' ? undefined : utcInstant(form.to);
    if (from === null) errors.push('From must be a date and time (UTC), or empty for the first counter sample.');
    if (to === null) errors.push('To must be a date and time (UTC), or empty for the last counter sample.');
    if (from && to && Date.parse(to) <= Date.parse(from)) errors.push('To must be after From.');
    const bytesPerPacket = positive(form.bytesPerPacket, 'Bytes per packet', 65536, errors);
    if (from !== null && to !== null) {
      counters = {
        source: 'telemetry',
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        bytes_per_packet: bytesPerPacket,
      };
    }
  }
  const periodS = form.periodS.trim() === '' ? null : positive(form.periodS, 'Period (s)', 86400, errors);
  const threshold = Number(form.threshold.trim());
  if (form.threshold.trim() === '' || !(threshold > 0 && threshold <= 1)) errors.push('Threshold must be in (0, 1].');
  if (errors.length > 0 || !rackSet.value || !counters) return { value: null, errors };
  return {
    value: {
      params: { rack_set: rackSet.value, counters, period_s: periodS, threshold, policy: form.policy },
      fabric,
    },
    errors,
  };
}

// --- Cost comparison ---------------------------------------------------------------------------

export interface CostFormState {
  racks: string;
  servers: string;
  staticUplinks: string;
  larryS: string;
  larryL: string;
  larryR: string;
  k: string;
  pods: string;
  backups: string;
  packetPort: string;
  circuitPort: string;
  activeCable: string;
  passiveCable: string;
}

/** The contract's defaults: the circuit-switch port costs 0.3 of a packet-switch port (seed 003). */
export const INITIAL_COST_FORM: CostFormState = {
  racks: '4',
  servers: '16',
  staticUplinks: '4',
  larryS: '2',
  larryL: '4',
  larryR: '2',
  k: '16',
  pods: '16',
  backups: '1',
  packetPort: '1',
  circuitPort: '0.3',
  activeCable: '0.5',
  passiveCable: '0.1',
};

export function buildCostsRequest(form: CostFormState): Built<CostsRequest> {
  const errors: string[] = [];
  const servers = integer(form.servers, 'Servers per rack', 1, 1024, errors);
  const request: CostsRequest = {
    racks: integer(form.racks, 'Racks', 1, 100000, errors),
    servers,
    static_uplinks: integer(
      form.staticUplinks,
      'Static uplinks',
      1,
      Number.isInteger(servers) ? servers : 1024,
      errors,
    ),
    larry_s: integer(form.larryS, 'Larry S', 0, 1024, errors),
    larry_l: integer(form.larryL, 'Larry L', 0, 1024, errors),
    larry_r: integer(form.larryR, 'Larry R', 0, 1024, errors),
    k: evenK(form.k, errors),
    pods: 0,
    backups: integer(form.backups, 'Backups per group', 0, 8, errors),
    prices: {
      packet_port: positive(form.packetPort, 'Packet-switch port price', Number.POSITIVE_INFINITY, errors),
      circuit_port: nonNegative(form.circuitPort, 'Circuit-switch port price', errors),
      active_cable: nonNegative(form.activeCable, 'Active cable price', errors),
      passive_cable: nonNegative(form.passiveCable, 'Passive cable price', errors),
    },
  };
  request.pods = integer(form.pods, 'Pods', 1, Number.isInteger(request.k) && request.k >= 2 ? request.k : 64, errors);
  return errors.length > 0 ? { value: null, errors } : { value: request, errors };
}

/**
 * Reads a chosen file's text in the browser (a file that is not text carries its `problem`, naming
 * what the field `accepts`: "JSON"; "CSV or JSON" when left out); null when the choice is cleared.
 */
export function readFile(file: File | undefined, onRead: (upload: Upload | null) => void, accepts?: string) {
  if (!file) {
    onRead(null);
    return;
  }
  void readTextUpload(file, accepts).then(onRead);
}
