import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { JobStatus } from '@/features/jobs';
import { ApiError } from '@/lib/api-client';
import { formatCount, formatSeconds } from '@/lib/format';
import { useElementWidth } from '@/lib/useElementWidth';

import type { ScheduleResult } from '../api/types';
import { useDemandMatrix } from '../api/useDemandMatrix';
import { useScheduleJob } from '../api/useScheduleJob';
import { AlgorithmComparison } from '../components/AlgorithmComparison';
import { CircuitTimeline } from '../components/CircuitTimeline';
import { DemandHeatMap } from '../components/DemandHeatMap';
import { MetricCards } from '../components/MetricCards';
import { RackOrderSelect } from '../components/RackOrderSelect';
import { VisitDelayHistogram } from '../components/VisitDelayHistogram';
import { buildHeatMap, type DemandEntry, matrixEntries, type RackOrder, slotDemand } from '../heatMap';
import { algorithmLabel, formatBytes, slotCaveat } from '../scheduleFormat';
import { buildTimeline } from '../timeline';
import { visitDelayModel } from '../visitDelay';
import '../circuits.css';

/** Above this many ports the timeline starts with idle ports hidden. */
const HIDE_IDLE_ABOVE = 48;
/** The matrix endpoint's largest answer. */
const MATRIX_RACKS = 400;

export function ScheduleDetailPage() {
  const jobId = Number(useParams().jobId);
  const job = useScheduleJob(jobId);

  return (
    <section aria-labelledby="schedule-heading">
      <p className="breadcrumb">
        <Link to="/circuits">Circuits</Link> /
      </p>
      <h1 id="schedule-heading">Circuit schedule #{jobId}</h1>
      {job.isPending ? <Loading label="Loading the schedule…" /> : null}
      <ErrorList error={job.error} title="Could not load the schedule." />
      {job.data ? (
        <>
          <JobStatus job={job.data} label="Schedule" testId="schedule" appears="the heat map and timeline appear" />
          {job.data.state === 'succeeded' && job.data.result ? (
            <ScheduleResultView jobId={jobId} result={job.data.result} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function downloadLinks(jobId: number) {
  const base = `/api/jobs/${jobId}/result/`;
  return [
    { label: 'Result (JSON, checks with lightpath circuits verify)', href: `${base}?format=json` },
    { label: 'Circuits per slot (CSV)', href: `${base}?format=csv&table=slots` },
    { label: 'Metrics per algorithm (CSV)', href: `${base}?format=csv&table=metrics` },
  ];
}

function ScheduleResultView({ jobId, result }: { jobId: number; result: ScheduleResult }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const rackNames = useMemo(() => result.racks.map((rack) => rack.name), [result.racks]);
  const input = result.input;
  const portCount = input.ports.reduce((sum, ports) => sum + ports, 0);
  const [slot, setSlot] = useState(0);
  const [order, setOrder] = useState<RackOrder>('name');
  const [onlyActive, setOnlyActive] = useState(portCount > HIDE_IDLE_ABOVE);
  const chosenSlot = result.slots[Math.min(slot, result.slots.length - 1)];
  const caveat = chosenSlot
    ? slotCaveat(chosenSlot, input.algorithm, (input.groups?.length ?? 0) > 0 || result.edge_groups.length > 0)
    : '';
  const timeline = useMemo(
    () =>
      buildTimeline({ rackNames, ports: input.ports, slots: result.slots, darkTimeS: input.dark_time_s, onlyActive }),
    [rackNames, input.ports, input.dark_time_s, result.slots, onlyActive],
  );
  const switches = result.circuit_switches.map((cs) => cs.name).join(', ');
  const visitDelays = useMemo(
    () =>
      visitDelayModel(
        result.comparison.length > 1 ? result.comparison : [{ ...result.metrics, algorithm: input.algorithm }],
        input.algorithm,
        input.period_s,
      ),
    [result.comparison, result.metrics, input.algorithm, input.period_s],
  );

  return (
    <div ref={ref} className="schedule-result">
      <dl className="facts" data-testid="schedule-facts">
        <div>
          <dt>Fabric</dt>
          <dd>
            <Link to={`/fabrics/${result.fabric.id}`}>{result.fabric.name}</Link>
          </dd>
        </div>
        <div>
          <dt>Demand</dt>
          <dd>
            {result.demand.name} ({formatSeconds(result.demand.window_s)} windows)
          </dd>
        </div>
        <div>
          <dt>Circuit switch{result.circuit_switches.length === 1 ? '' : 'es'}</dt>
          <dd>
            {switches}: {result.racks.length} racks, {portCount} optical ports available
          </dd>
        </div>
        <div>
          <dt>Plan</dt>
          <dd>
            {algorithmLabel(input.algorithm)}, {input.mode}, {input.reconfig === 'global' ? 'global' : 'per-port'}{' '}
            reconfiguration; period {formatSeconds(input.period_s)}, dark {formatSeconds(input.dark_time_s)},{' '}
            {Number(((input.capacity_bytes_per_s * 8) / 1e9).toPrecision(4))} Gb/s per circuit
          </dd>
        </div>
        {result.ignored.rows > 0 ? (
          <div>
            <dt>Left out</dt>
            <dd>
              {formatCount(result.ignored.rows)} rows ({formatBytes(result.ignored.bytes)}) on racks outside the switch
            </dd>
          </div>
        ) : null}
      </dl>
      <div className="sim-downloads" aria-label="Downloads">
        {downloadLinks(jobId).map((link) => (
          <a key={link.href} href={link.href} download>
            {link.label}
          </a>
        ))}
      </div>

      <div className="metrics-row">
        <MetricCards metrics={result.metrics} periodS={input.period_s} slotCount={result.slots.length} />
        {visitDelays ? (
          <VisitDelayHistogram
            model={visitDelays}
            periodS={input.period_s}
            width={Math.min(Math.max(width, 320), 460)}
          />
        ) : (
          <p className="muted" data-testid="visit-delay-histogram-missing">
            This result predates the visit-delay histogram: run the schedule again to see it.
          </p>
        )}
      </div>

      <h2>Demand and circuits</h2>
      {chosenSlot ? (
        <>
          <form className="filters" aria-label="Heat map slot" onSubmit={(event) => event.preventDefault()}>
            <label className="slot-slider">
              Slot {chosenSlot.index + 1} of {result.slots.length} ({chosenSlot.t0}–{chosenSlot.t1} s)
              <input
                type="range"
                min={1}
                max={result.slots.length}
                value={slot + 1}
                onChange={(event) => setSlot(Number(event.target.value) - 1)}
                aria-label="Slot"
              />
            </label>
            <RackOrderSelect value={order} onChange={setOrder} />
          </form>
          <p className="muted" data-testid="slot-summary">
            {chosenSlot.circuits.length} circuit{chosenSlot.circuits.length === 1 ? '' : 's'},{' '}
            {chosenSlot.changed_ports.length} port{chosenSlot.changed_ports.length === 1 ? '' : 's'} dark at the start;
            weight {formatBytes(chosenSlot.weight)} of bound {formatBytes(chosenSlot.bound)}, carried{' '}
            {formatBytes(chosenSlot.offloaded_bytes)}
            {caveat ? ` (${caveat})` : ''}.
          </p>
          <SlotHeatMap result={result} rackNames={rackNames} slotIndex={chosenSlot.index} order={order} width={width} />
        </>
      ) : (
        <p>The schedule has no slots: no pair had demand above the minimum.</p>
      )}

      <h2>Circuits per port</h2>
      <label className="check">
        <input type="checkbox" checked={onlyActive} onChange={(event) => setOnlyActive(event.target.checked)} /> Only
        ports that hold a circuit
      </label>
      <CircuitTimeline
        timeline={timeline}
        slots={result.slots}
        darkTimeS={input.dark_time_s}
        width={width}
        selectedSlot={chosenSlot?.index ?? 0}
      />

      <h2>Algorithms compared</h2>
      {result.comparison.length > 1 ? (
        <AlgorithmComparison
          comparison={result.comparison}
          chosen={input.algorithm}
          uniformRatio={result.metrics.uniform_ratio}
          width={width}
        />
      ) : (
        <p className="muted">No comparison was asked for; start a schedule with “compare” to see the baselines.</p>
      )}

      {result.edge_groups.length > 0 ? (
        <>
          <h2>Edge groups</h2>
          <table className="data-table" data-testid="edge-groups">
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Pairs</th>
                <th scope="col" className="numeric">
                  Slots with every pair on a circuit
                </th>
                <th scope="col" className="numeric">
                  Bonus earned
                </th>
              </tr>
            </thead>
            <tbody>
              {result.edge_groups.map((group) => (
                <tr key={group.name}>
                  <th scope="row">{group.name}</th>
                  <td>{group.pairs.map(([a, b]) => `${a}–${b}`).join(', ')}</td>
                  <td className="numeric">{group.completed_slots}</td>
                  <td className="numeric">{formatBytes(group.bonus_earned_bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}

/** The heat map from the result's demand echo, or from the matrix endpoint when the echo was too large. */
function SlotHeatMap({
  result,
  rackNames,
  slotIndex,
  order,
  width,
}: {
  result: ScheduleResult;
  rackNames: string[];
  slotIndex: number;
  order: RackOrder;
  width: number;
}) {
  const slot = result.slots.find((s) => s.index === slotIndex);
  const echoed = useMemo(() => slotDemand(result.input, slotIndex), [result.input, slotIndex]);
  const windowIndex = Math.max(0, Math.floor((slot?.t0 ?? 0) / (result.demand.window_s || 1)));
  const matrix = useDemandMatrix(echoed === null ? result.demand.id : null, {
    window: windowIndex,
    racks: MATRIX_RACKS,
    circuitSwitch: result.circuit_switches[0]?.id,
  });
  const entries = useMemo<DemandEntry[] | null>(
    () => (echoed ? echoed.entries : matrix.data ? matrixEntries(matrix.data, rackNames) : null),
    [echoed, matrix.data, rackNames],
  );
  const caption = echoed
    ? echoed.caption
    : `demand window ${windowIndex + 1} (the result holds no demand echo; at most ${MATRIX_RACKS} busiest racks)`;
  const circuits = slot?.circuits;
  const model = useMemo(
    () => (entries && circuits ? buildHeatMap({ rackNames, entries, circuits, order }) : null),
    [entries, circuits, rackNames, order],
  );
  return (
    <>
      {matrix.error instanceof ApiError && matrix.error.status === 404 ? (
        <p className="notice" data-testid="heatmap-demand-deleted">
          The demand “{result.demand.name}” was deleted, and this result holds no demand echo (too large to store), so
          there is no heat map; the timeline and metrics below are complete.
        </p>
      ) : (
        <ErrorList error={matrix.error} title="Could not load the demand matrix." />
      )}
      {model ? <DemandHeatMap model={model} width={Math.min(width, 900)} caption={caption} /> : null}
      {!model && matrix.isFetching ? <Loading label="Loading the demand matrix…" /> : null}
    </>
  );
}
