import { useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { useFabricTopology } from '@/features/fabrics';
import { formatCount, formatTime } from '@/lib/format';
import { useElementWidth } from '@/lib/useElementWidth';

import type { ClassesResult, LossLink } from '../api/types';
import { codingText, formatLoss, keptExplanation, worstPathText } from '../classData';
import { classesDownloads, formatPercent } from '../planData';
import { ClassFabricDrawing } from './ClassFabricDrawing';
import { GoodPathChart } from './GoodPathChart';

function maybePercent(value: number | null): string {
  return value === null ? '—' : formatPercent(value, 1);
}

export function ClassesResultView({ jobId, result }: { jobId: number; result: ClassesResult }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const [chosen, setChosen] = useState(result.classes.at(-1)?.class ?? 1);
  const cls = result.classes.find((entry) => entry.class === chosen) ?? result.classes[0];
  const topology = useFabricTopology(result.inputs.fabric.id);
  const inputs = result.inputs;

  return (
    <div ref={ref} className="sim-result">
      <dl className="facts" data-testid="classes-facts">
        <div>
          <dt>Fabric</dt>
          <dd>
            <Link to={`/fabrics/${inputs.fabric.id}`}>{inputs.fabric.name}</Link>: {formatCount(result.links)} links,{' '}
            {formatCount(result.alive)} enabled and up
          </dd>
        </div>
        <div>
          <dt>Loss rates</dt>
          <dd>
            latest per direction measured since {formatTime(inputs.since)} ({inputs.window_hours} h):{' '}
            {formatCount(result.measured_directions)} directions measured
            {result.unmeasured.directions > 0
              ? `; ${formatCount(result.unmeasured.directions)} not measured, ${result.unmeasured.rule} (${formatCount(result.unmeasured.links.length)} links)`
              : ''}
          </dd>
        </div>
        <div>
          <dt>Repair</dt>
          <dd>
            {formatCount(result.repair.length)} links lose more than {formatLoss(inputs.repair_above)} and are in no
            class
          </dd>
        </div>
      </dl>
      <div className="sim-downloads" aria-label="Downloads">
        {classesDownloads(jobId).map((link) => (
          <a key={link.href} href={link.href} download>
            {link.label}
          </a>
        ))}
      </div>

      <h2>Classes</h2>
      <table className="data-table" data-testid="classes-summary">
        <caption className="visually-hidden">Per class: bound, links, worst path, paths kept, coding</caption>
        <thead>
          <tr>
            <th scope="col">Class</th>
            <th scope="col" className="numeric">
              Bound
            </th>
            <th scope="col" className="numeric">
              Links
            </th>
            <th scope="col" className="numeric">
              Removed for it
            </th>
            <th scope="col" className="numeric">
              Worst path loss
            </th>
            <th scope="col" className="numeric">
              Paths kept: worst ToR pair
            </th>
            <th scope="col" className="numeric">
              p1
            </th>
            <th scope="col" className="numeric">
              median
            </th>
            <th scope="col" className="numeric">
              FEC overhead (mean)
            </th>
          </tr>
        </thead>
        <tbody>
          {result.summary.map((row) => (
            <tr key={row.class} data-testid="class-row" aria-selected={row.class === chosen}>
              <th scope="row">
                <button type="button" className="link-button" onClick={() => setChosen(row.class)}>
                  Class {row.class}
                </button>
              </th>
              <td className="numeric">{formatLoss(row.bound)}</td>
              <td className="numeric">{formatCount(row.links)}</td>
              <td className="numeric">{formatCount(row.removed)}</td>
              <td className="numeric">{row.worst_loss === null ? 'no path' : formatLoss(row.worst_loss)}</td>
              <td className="numeric">{maybePercent(row.kept_min)}</td>
              <td className="numeric">{maybePercent(row.kept_p1)}</td>
              <td className="numeric">{maybePercent(row.kept_p50)}</td>
              <td className="numeric">
                {row.fec_mean_overhead === null ? '—' : formatPercent(row.fec_mean_overhead, 2)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <div className="muted" data-testid="classes-kept-note">
        <p>
          Paths kept: the share of a ToR pair’s shortest paths whose every link is in the class; the worst ToR pair’s
          share, then the 1st percentile and the median over all pairs.
        </p>
        {result.classes.map((entry, i) => {
          const text = keptExplanation(entry, result.classes[i + 1]?.class ?? null);
          return text ? <p key={entry.class}>{text}</p> : null;
        })}
      </div>

      {cls ? (
        <>
          <form className="filters" aria-label="Class shown" onSubmit={(event) => event.preventDefault()}>
            <label>
              Class shown
              <select value={cls.class} onChange={(event) => setChosen(Number(event.target.value))}>
                {result.classes.map((entry) => (
                  <option key={entry.class} value={entry.class}>
                    Class {entry.class} (bound {formatLoss(entry.bound)})
                  </option>
                ))}
              </select>
            </label>
          </form>
          <h2>
            Class {cls.class}: {formatCount(cls.link_count)} links, worst path loss at most {formatLoss(cls.bound)}
          </h2>
          <p data-testid="class-worst-path">
            {cls.worst ? (
              <>
                Worst path: <strong>{worstPathText(cls.worst)}</strong>, loss{' '}
                <strong>{formatLoss(cls.worst.loss)}</strong> (hops:{' '}
                {cls.worst.hops
                  .map((hop) => `${hop.name} ${hop.upward ? 'up' : 'down'} ${formatLoss(hop.loss)}`)
                  .join('; ')}
                ).
              </>
            ) : (
              'This class has no path between two ToRs.'
            )}
          </p>
          {topology.isPending ? <Loading label="Loading the fabric drawing…" /> : null}
          <ErrorList error={topology.error} title="Could not load the fabric’s topology." />
          {topology.data ? <ClassFabricDrawing topology={topology.data} cls={cls} repair={result.repair} /> : null}
          {cls.fec ? (
            <p data-testid="class-fec">
              <strong>FEC:</strong> {codingText(cls.fec)}.
            </p>
          ) : null}
          {cls.kept_paths ? (
            <>
              <h3>Share of each ToR’s paths in the class</h3>
              <GoodPathChart
                fractions={cls.kept_paths}
                bound={null}
                width={width}
                what="share of paths kept"
                testId="kept-paths-chart"
              />
            </>
          ) : null}
          <h3>Links removed for this class</h3>
          <LossLinkTable
            links={cls.removed}
            empty="None: every link of the next class meets this bound."
            testId="class-removed"
          />
        </>
      ) : null}

      <h2>Links marked for repair</h2>
      <LossLinkTable links={result.repair} empty="None." testId="class-repair" />
    </div>
  );
}

function LossLinkTable({ links, empty, testId }: { links: LossLink[]; empty: string; testId: string }) {
  if (links.length === 0) return <p className="muted">{empty}</p>;
  return (
    <table className="data-table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Link</th>
          <th scope="col" className="numeric">
            Loss up
          </th>
          <th scope="col" className="numeric">
            Loss down
          </th>
        </tr>
      </thead>
      <tbody>
        {links.map((link) => (
          <tr key={link.link}>
            <th scope="row">
              <Link to={`/links/${link.link}`}>{link.name}</Link>
            </th>
            <td className="numeric">{formatLoss(link.loss_up)}</td>
            <td className="numeric">{formatLoss(link.loss_down)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
