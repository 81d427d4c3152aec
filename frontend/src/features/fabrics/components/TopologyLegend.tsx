import { Link } from 'react-router';

import { LineSwatch } from '@/components/LineSwatch';
import { formatCount } from '@/lib/format';
import { LINK_HEALTH_STYLE, LINK_HEALTHS, type LinkHealth } from '@/lib/linkHealth';

import { dashArray, LINK_STATE_STYLE, LINK_STATES, type LinkState } from './linkState';

/** Colour of the state samples: neutral, because in the drawing colour is health. */
const STATE_SWATCH_COLOUR = '#24313f';

interface TopologyLegendProps {
  counts: Record<LinkState, number>;
  healthCounts: Record<LinkHealth, number>;
  /** Enabled, up and corrupting now: the number Health's "Now" and the Links filter show too. */
  corruptingInService: number;
  /** The Links page filtered to those links. */
  corruptingInServiceHref: string;
}

export function TopologyLegend({
  counts,
  healthCounts,
  corruptingInService,
  corruptingInServiceHref,
}: TopologyLegendProps) {
  return (
    <div className="topology-legend">
      <ul className="legend" aria-label="Link health (line colour)">
        <li className="legend-heading" aria-hidden="true">
          Colour: health
        </li>
        {LINK_HEALTHS.map((health) => {
          const style = LINK_HEALTH_STYLE[health];
          return (
            <li key={health} data-testid={`legend-health-${health}`} title={style.meaning}>
              <LineSwatch colour={style.colour} width={3} />
              {style.label} <span className="legend-count">({formatCount(healthCounts[health])})</span>
            </li>
          );
        })}
        <li
          data-testid="legend-corrupting-in-service"
          title="Enabled and up with corruption measured now; a repaired link awaiting validation is not counted"
        >
          <Link to={corruptingInServiceHref}>
            Corrupting in service <span className="legend-count">({formatCount(corruptingInService)})</span>
          </Link>
        </li>
      </ul>
      <ul className="legend" aria-label="Link states (line pattern)">
        <li className="legend-heading" aria-hidden="true">
          Pattern: state
        </li>
        {LINK_STATES.map((state) => (
          <li key={state} data-testid={`legend-${state}`}>
            <LineSwatch
              colour={STATE_SWATCH_COLOUR}
              width={2 * LINK_STATE_STYLE[state].widthFactor}
              dash={dashArray(state)}
            />
            {LINK_STATE_STYLE[state].label} <span className="legend-count">({formatCount(counts[state])})</span>
          </li>
        ))}
        <li>
          <svg width="12" height="12" aria-hidden="true">
            <circle cx="6" cy="6" r="4" className="legend-node" />
          </svg>
          Switch
        </li>
      </ul>
    </div>
  );
}
