import { LineSwatch } from '@/components/LineSwatch';

export interface LegendEntry {
  key: string;
  label: string;
  colour: string;
  dash?: string;
}

export function ChartLegend({ label, entries }: { label: string; entries: LegendEntry[] }) {
  return (
    <ul className="legend" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.key}>
          <LineSwatch colour={entry.colour} width={2.5} dash={entry.dash || undefined} />
          {entry.label}
        </li>
      ))}
    </ul>
  );
}
