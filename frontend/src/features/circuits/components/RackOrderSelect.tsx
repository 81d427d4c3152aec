import type { RackOrder } from '../heatMap';

/** How a heat map orders its racks: by name, or busiest first. */
export function RackOrderSelect({ value, onChange }: { value: RackOrder; onChange: (order: RackOrder) => void }) {
  return (
    <label>
      Racks
      <select value={value} onChange={(event) => onChange(event.target.value as RackOrder)}>
        <option value="name">by name</option>
        <option value="demand">busiest first</option>
      </select>
    </label>
  );
}
