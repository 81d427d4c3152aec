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
  tickets: {
    title: 'Tickets',
    summary:
      'Maintenance tickets for corrupting optical links, driven by CorrOpt: take a corrupting link out of service only when every ToR keeps enough capacity, and attach a root-cause-specific repair recommendation to the ticket.',
    willShow: [
      'Open tickets per fabric with the corrupting link, its loss rate (a fraction, e.g. 1e-6) and when it was disabled.',
      'The repair recommendation for each ticket (clean connector, reseat or replace transceiver, replace fiber) and the evidence behind it.',
      'Fast-checker and optimizer decisions: why a link was disabled, or kept up because a ToR would drop below its capacity constraint.',
      'The ticket lifecycle: opened, repaired, link re-enabled, with the audit trail.',
    ],
    issue: '#3 CorrOpt engine, #4 optical telemetry pipeline and #5 corruption mitigation and repair tickets',
    lands: 'Django apps corruption and repairs, engine module corropt',
    reference: 'shared/reference/corropt.md',
  },
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
