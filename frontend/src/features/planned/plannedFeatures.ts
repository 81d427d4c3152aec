/**
 * Pages whose backend does not exist yet. Each says what will live there and
 * which issue delivers it, instead of showing made-up data.
 */
export interface PlannedFeature {
  title: string;
  summary: string;
  willShow: string[];
  /** The issue that delivers the backend and this page. */
  issue: string;
  /** Where the work lands in the codebase. */
  lands: string;
  reference: string;
}

export const PLANNED_FEATURES = {
  planning: {
    title: 'Planning',
    summary:
      'RAIL planning: stretch cheap short-reach transceivers beyond their rated reach where the optical power budget allows, and handle the resulting gray links with routing and FEC.',
    willShow: [
      'A stretch plan per fabric: which links can use a cheaper transceiver model and how far past rated reach each one runs.',
      'Reliability classes of the virtual topologies and the worst-path bit error rate per ToR pair.',
      'Cost comparison against the all-rated-reach build, from the transceiver catalog prices.',
      'Plans run as background jobs with a progress bar on the Jobs page.',
    ],
    issue: '#6 RAIL planner: transceiver stretch costing, reliability classes, FEC sizing',
    lands: 'Django app planning, engine module rail',
    reference: 'shared/reference/rail.md',
  },
  circuits: {
    title: 'Circuits',
    summary:
      'Optical circuit switching on top of the packet fabric: c-Through rack-to-rack circuit schedules, ShareBackup failover to shared backup switches and Larry rack-uplink reconfiguration.',
    willShow: [
      'Circuit schedules computed from a demand snapshot (one max-weight matching per period), with the demand they serve.',
      'Failover plans that splice a shared backup switch in when a switch fails, and the backup pool each failure group needs.',
      'Uplink reconfiguration schedules per rack, with an embedding check against the circuit switch ports.',
    ],
    issue: '#7 optical circuit schedules (c-Through) and #8 ShareBackup failover and Larry uplink reconfiguration',
    lands: 'Django app circuits, engine modules matching and reconfig',
    reference: 'shared/reference/circuits-cthrough.md and circuits-sharebackup-larry.md',
  },
} satisfies Record<string, PlannedFeature>;
