import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { LINK_HEALTHS, LINK_HEALTH_STYLE } from '@/lib/linkHealth';

import type { LinkFilters } from '../api/types';
import { toggleHealth } from '../linkFilters';

interface LinkFiltersFormProps {
  filters: LinkFilters;
  fabrics: FabricChoice[];
  onChange: (filters: LinkFilters) => void;
}

export function LinkFiltersForm({ filters, fabrics, onChange }: LinkFiltersFormProps) {
  return (
    <form className="filters" aria-label="Link filters" onSubmit={(event) => event.preventDefault()}>
      <FabricSelect
        fabrics={fabrics}
        emptyOption="All fabrics"
        value={filters.fabric}
        onChange={(fabric) => onChange({ ...filters, fabric: fabric ? Number(fabric) : undefined })}
      />
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
      <fieldset className="filter-group">
        <legend>Health</legend>
        {LINK_HEALTHS.map((health) => (
          <label key={health} className="check" title={LINK_HEALTH_STYLE[health].meaning}>
            <input
              type="checkbox"
              checked={filters.health?.includes(health) ?? false}
              onChange={(event) =>
                onChange({ ...filters, health: toggleHealth(filters.health, health, event.target.checked) })
              }
            />
            {health}
          </label>
        ))}
        <label className="check" title="Enabled and up with corruption measured now: the number Health shows">
          <input
            type="checkbox"
            checked={filters.corrupting_in_service ?? false}
            onChange={(event) =>
              onChange({ ...filters, corrupting_in_service: event.target.checked ? true : undefined })
            }
          />
          Corrupting in service only
        </label>
      </fieldset>
      <fieldset className="filter-group">
        <legend>Oper state changes</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={filters.flapping ?? false}
            onChange={(event) => onChange({ ...filters, flapping: event.target.checked ? true : undefined })}
          />
          Flapping only
        </label>
      </fieldset>
      <fieldset className="filter-group">
        <legend>Receiver</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={filters.rx_low ?? false}
            onChange={(event) => onChange({ ...filters, rx_low: event.target.checked ? true : undefined })}
          />
          Rx low or dark only
        </label>
      </fieldset>
      <fieldset className="filter-group">
        <legend>Forecast</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={filters.at_risk ?? false}
            onChange={(event) => onChange({ ...filters, at_risk: event.target.checked ? true : undefined })}
          />
          At risk only
        </label>
      </fieldset>
    </form>
  );
}
