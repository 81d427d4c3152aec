import { LineSwatch } from '@/components/LineSwatch';

import { LINK_STATES, LINK_STATE_STYLE, type LinkState } from './linkState';

export function TopologyLegend({ counts }: { counts: Record<LinkState, number> }) {
  return (
    <ul className="legend" aria-label="Link states">
      {LINK_STATES.map((state) => {
        const style = LINK_STATE_STYLE[state];
        return (
          <li key={state} data-testid={`legend-${state}`}>
            <LineSwatch colour={style.colour} width={3} dash={style.dashed ? '5 3' : undefined} />
            {style.label} <span className="legend-count">({counts[state].toLocaleString('en-US')})</span>
          </li>
        );
      })}
      <li>
        <svg width="12" height="12" aria-hidden="true">
          <circle cx="6" cy="6" r="4" className="legend-node" />
        </svg>
        Switch
      </li>
    </ul>
  );
}
