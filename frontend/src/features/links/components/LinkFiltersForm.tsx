import type { FabricBrief } from '@/features/fabrics/api/types';

import type { LinkFilters } from '../api/types';

interface LinkFiltersFormProps {
  filters: LinkFilters;
  fabrics: FabricBrief[];
  onChange: (filters: LinkFilters) => void;
}

export function LinkFiltersForm({ filters, fabrics, onChange }: LinkFiltersFormProps) {
  return (
    <form className="filters" aria-label="Link filters" onSubmit={(event) => event.preventDefault()}>
      <label>
        Fabric
        <select
          value={filters.fabric ?? ''}
          onChange={(event) =>
            onChange({ ...filters, fabric: event.target.value ? Number(event.target.value) : undefined })
          }
        >
          <option value="">All fabrics</option>
          {fabrics.map((fabric) => (
            <option key={fabric.id} value={fabric.id}>
              {fabric.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Admin state
        <select
          value={filters.admin_state ?? ''}
          onChange={(event) =>
            onChange({ ...filters, admin_state: (event.target.value || undefined) as LinkFilters['admin_state'] })
          }
        >
          <option value="">Any</option>
          <option value="enabled">enabled</option>
          <option value="disabled">disabled</option>
        </select>
      </label>
      <label>
        Oper state
        <select
          value={filters.oper_state ?? ''}
          onChange={(event) =>
            onChange({ ...filters, oper_state: (event.target.value || undefined) as LinkFilters['oper_state'] })
          }
        >
          <option value="">Any</option>
          <option value="up">up</option>
          <option value="down">down</option>
        </select>
      </label>
    </form>
  );
}
