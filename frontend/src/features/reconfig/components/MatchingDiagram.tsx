import type { Circuit } from '../api/types';
import { hasCircuit, type MatchingView, portLabel, portOwner } from '../sharebackupData';

const SIDE = 64;
/** Port spacing: roomy for small fabrics; a k = 64 circuit switch (40 ports a side) stays ~500 px wide. */
function portGap(ports: number): number {
  return ports <= 12 ? 34 : Math.max(8, Math.floor(440 / ports));
}
const TOP = 26;
const BOTTOM = 86;
const HEIGHT = 112;

type Mark = 'kept' | 'removed' | 'added' | 'test';

const MARK_LABEL: Record<Mark, string> = {
  kept: 'circuit kept',
  removed: 'circuit taken down',
  added: 'circuit set up',
  test: 'diagnosis test circuit',
};

interface PanelProps {
  view: MatchingView;
  title: 'Before' | 'After';
  circuits: { circuit: Circuit; mark: Mark }[];
}

function circuitsText(view: MatchingView, circuits: readonly Circuit[]): string {
  if (circuits.length === 0) return 'no circuits';
  return circuits
    .map(([low, high]) => `${portOwner(view.wiring, 'low', low)} to ${portOwner(view.wiring, 'high', high)}`)
    .join('; ');
}

/** One side of the drawing: the high-side ports on top, the low-side ports below, circuits between. */
function MatchingPanel({ view, title, circuits }: PanelProps) {
  const { wiring } = view;
  const ports = Math.max(wiring.low_ports, wiring.high_ports);
  const gap = portGap(ports);
  const portX = (port: number) => SIDE + port * gap;
  const radius = Math.min(6, gap / 3);
  const width = SIDE + (ports - 1) * gap + 24;
  // With tight spacing only the ports the event touches keep their labels.
  const touched = new Set([
    ...view.calls.flatMap((call) => [
      `${call.side}:${call.failed_port}`,
      `${call.side}:${call.backup_port}`,
      `${call.side === 'low' ? 'high' : 'low'}:${call.peer_port}`,
    ]),
    ...[...view.removed, ...view.added, ...view.tests].flatMap(([low, high]) => [`low:${low}`, `high:${high}`]),
  ]);
  const labelled = (side: 'low' | 'high', port: number) => gap >= 22 || touched.has(`${side}:${port}`);
  const failedPorts = new Set(view.calls.map((call) => `${call.side}:${call.failed_port}`));
  const backupPorts = new Set(view.calls.map((call) => `${call.side}:${call.backup_port}`));
  const portClass = (side: 'low' | 'high', port: number) =>
    failedPorts.has(`${side}:${port}`) ? 'port-failed' : backupPorts.has(`${side}:${port}`) ? 'port-backup' : '';
  const drawn = circuits.filter(({ mark }) => mark !== 'test').map(({ circuit }) => circuit);

  return (
    <figure className="matching-panel">
      <figcaption>{title}</figcaption>
      <svg
        width={width}
        height={HEIGHT}
        role="img"
        aria-label={`${view.circuitSwitch} ${title.toLowerCase()}: ${circuitsText(view, drawn)}`}
        data-testid={`matching-${title.toLowerCase()}`}
      >
        <text className="matching-side" x={4} y={TOP + 4}>
          {wiring.high_group}
        </text>
        <text className="matching-side" x={4} y={BOTTOM + 4}>
          {wiring.low_group ?? 'hosts'}
        </text>
        {circuits.map(({ circuit: [low, high], mark }) => (
          <line
            key={`${mark}-${low}-${high}`}
            className={`circuit circuit-${mark}`}
            data-testid="circuit"
            data-mark={mark}
            x1={portX(low)}
            y1={BOTTOM}
            x2={portX(high)}
            y2={TOP}
          >
            <title>{`${MARK_LABEL[mark]}: ${portOwner(wiring, 'low', low)} – ${portOwner(wiring, 'high', high)}`}</title>
          </line>
        ))}
        {Array.from({ length: wiring.high_ports }, (_, port) => (
          <g key={`h${port}`} transform={`translate(${portX(port)},${TOP})`}>
            <circle r={radius} className={`port ${portClass('high', port)}`}>
              <title>{portOwner(wiring, 'high', port)}</title>
            </circle>
            {labelled('high', port) ? (
              <text y={-10} textAnchor="middle">
                {portLabel(wiring, 'high', port)}
              </text>
            ) : null}
          </g>
        ))}
        {Array.from({ length: wiring.low_ports }, (_, port) => (
          <g key={`l${port}`} transform={`translate(${portX(port)},${BOTTOM})`}>
            <circle r={radius} className={`port ${portClass('low', port)}`}>
              <title>{portOwner(wiring, 'low', port)}</title>
            </circle>
            {labelled('low', port) ? (
              <text y={20} textAnchor="middle">
                {portLabel(wiring, 'low', port)}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
    </figure>
  );
}

/**
 * A circuit switch's matching before and after an event: the circuits the event took down are
 * drawn dashed in red on the left, the ones it set up in green on the right; diagnosis test
 * circuits are dotted. Failed ports are filled red, backup ports green.
 */
export function MatchingDiagram({ view }: { view: MatchingView }) {
  const before = view.before.map((circuit) => ({
    circuit,
    mark: (hasCircuit(view.removed, circuit) ? 'removed' : 'kept') as Mark,
  }));
  const after = [
    ...view.after.map((circuit) => ({ circuit, mark: (hasCircuit(view.added, circuit) ? 'added' : 'kept') as Mark })),
    ...view.tests.map((circuit) => ({ circuit, mark: 'test' as Mark })),
  ];
  return (
    <section
      className="matching"
      data-testid="matching"
      data-circuit-switch={view.circuitSwitch}
      aria-label={`Circuit switch ${view.circuitSwitch}`}
    >
      <h4>
        {view.circuitSwitch}{' '}
        <span className="muted">
          ({view.removed.length} taken down, {view.added.length} set up
          {view.tests.length > 0 ? `, ${view.tests.length} test` : ''})
        </span>
      </h4>
      <div className="matching-panels">
        <MatchingPanel view={view} title="Before" circuits={before} />
        <MatchingPanel view={view} title="After" circuits={after} />
      </div>
    </section>
  );
}

export function MatchingLegend() {
  return (
    <ul className="legend" aria-label="Matching legend">
      {(['kept', 'removed', 'added', 'test'] as Mark[]).map((mark) => (
        <li key={mark}>
          <svg width="28" height="10" aria-hidden="true">
            <line x1="1" y1="5" x2="27" y2="5" className={`circuit circuit-${mark}`} />
          </svg>
          {MARK_LABEL[mark]}
        </li>
      ))}
      <li>
        <svg width="14" height="14" aria-hidden="true">
          <circle cx="7" cy="7" r="5" className="port port-failed" />
        </svg>
        failed switch’s port
      </li>
      <li>
        <svg width="14" height="14" aria-hidden="true">
          <circle cx="7" cy="7" r="5" className="port port-backup" />
        </svg>
        backup’s port
      </li>
    </ul>
  );
}
