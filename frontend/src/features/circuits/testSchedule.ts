/**
 * Real engine schedules shaped as the server returns them (fixtures/generate.py writes them from
 * lightpath_engine.circuit_plan, each checked clean by circuit_verify).
 */
import type { ScheduleResult } from './api/types';
import parallelJson from './fixtures/schedule-global-parallel.json';
import replayJson from './fixtures/schedule-replay.json';

/** Eight racks of two pods (p0-tor0..p1-tor3), one port each, five windows in replay; exact,
 * compared with greedy and round-robin. */
export const REPLAY = replayJson as unknown as ScheduleResult;
/** Four racks, two ports on p0-tor0 and p0-tor1, global reconfiguration, drain mode. */
export const PARALLEL_GLOBAL = parallelJson as unknown as ScheduleResult;

export const rackNames = (result: ScheduleResult) => result.racks.map((rack) => rack.name);
