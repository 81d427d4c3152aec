import { LINK_STATES, LINK_STATE_STYLE, type LinkState } from './linkState';

export function TopologyLegend({ counts }: { counts: Record<LinkState, number> }) {
  return (
    <ul className="legend" aria-label="Link states">
      {LINK_STATES.map((state) => {
        const style = LINK_STATE_STYLE[state];
        return (
          <li key={state} data-testid={`legend-${state}`}>
            <svg width="28" height="10" aria-hidden="true">
              <line
                x1="1"
                y1="5"
                x2="27"
                y2="5"
                stroke={style.colour}
                strokeWidth="3"
                strokeDasharray={style.dashed ? '5 3' : undefined}
              />
            </svg>
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
