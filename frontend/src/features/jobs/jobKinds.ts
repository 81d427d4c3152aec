import type { components } from '@/lib/api/schema';

type JobKind = components['schemas']['JobKindEnum'];

/** Each kind's name on screen; the code (`corruption.optimize`) stays in the API and the CSV's filters.
 * Names sort as their codes do, so a list sorted by kind on the server reads in order. */
const JOB_KIND_LABELS: Record<JobKind, string> = {
  'circuits.schedule': 'Circuit schedule',
  'corruption.optimize': 'CorrOpt optimize',
  'corruption.simulate': 'CorrOpt what-if simulation',
  'fabric.capacity_report': 'Fabric capacity report',
  'fabric.import': 'Fabric import',
  'larry.run': 'Larry rack uplinks',
  'rail.classes': 'RAIL reliability classes',
  'rail.plan': 'RAIL stretch plan',
  'sharebackup.plan': 'ShareBackup failover plan',
  'tickets.plan': 'Work-order plan',
};

/** "CorrOpt optimize" for `corruption.optimize`; a kind this UI does not know yet as its code. */
export function jobKindLabel(kind: string): string {
  return (JOB_KIND_LABELS as Record<string, string>)[kind] ?? kind;
}
