import { useMemo } from 'react';

import type { ShareBackupPlan } from '../api/types';
import { describeCall, describeEvent, eventMatchings, eventOutcome } from '../sharebackupData';
import { MatchingDiagram, MatchingLegend } from './MatchingDiagram';

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** What the planner did for one event: replace() calls in order, pools, fallback, tests, matchings. */
export function EventDetail({ plan, index }: { plan: ShareBackupPlan; index: number }) {
  const planned = plan.events[index];
  const matchings = useMemo(() => eventMatchings(plan, index), [plan, index]);
  if (!planned) return null;

  return (
    <section className="panel event-detail" data-testid="event-detail" aria-labelledby="event-detail-heading">
      <h3 id="event-detail-heading">
        Event #{planned.index}: {describeEvent(planned.event)}{' '}
        <span className={`badge badge-${planned.status}`}>{planned.status === 'degraded' ? 'DEGRADED' : 'normal'}</span>
      </h3>
      <p data-testid="event-outcome">{eventOutcome(planned)}</p>
      <dl className="facts">
        <div>
          <dt>Failover time</dt>
          <dd>
            {planned.replace_calls.length > 0
              ? `${planned.latency_ms} ms (communication, computation, circuit switching)`
              : 'no circuit switched'}
          </dd>
        </div>
        <div>
          <dt>Pools after</dt>
          <dd>
            {planned.pools.length === 0
              ? 'unchanged'
              : planned.pools.map((pool) => (
                  <span key={pool.group} className="pool-line">
                    {pool.group}: free {pool.spares.join(', ') || 'none'}
                    {pool.suspects.length > 0 ? `; suspects ${pool.suspects.join(', ')}` : ''}
                    {pool.failed.length > 0 ? `; failed ${pool.failed.join(', ')}` : ''}
                  </span>
                ))}
          </dd>
        </div>
        {planned.repair_tickets.length > 0 ? (
          <div>
            <dt>Repair tickets</dt>
            <dd>{planned.repair_tickets.join(', ')}</dd>
          </div>
        ) : null}
      </dl>

      {planned.fallback.length > 0 ? (
        <>
          <h4>Rerouting fallback (no free backup in {planned.degraded_groups.join(', ')})</h4>
          <table className="data-table" data-testid="fallback-table">
            <thead>
              <tr>
                <th scope="col">Slot</th>
                <th scope="col" className="numeric">
                  Logical links lost
                </th>
                <th scope="col" className="numeric">
                  Hosts cut off
                </th>
                <th scope="col">Rerouted via</th>
                <th scope="col" className="numeric">
                  Group capacity left
                </th>
              </tr>
            </thead>
            <tbody>
              {planned.fallback.map((slot) => (
                <tr key={slot.slot}>
                  <th scope="row">{slot.slot}</th>
                  <td className="numeric">{slot.lost_links}</td>
                  <td className="numeric">{slot.disconnected_hosts}</td>
                  <td>{slot.reroute_via.join(', ') || 'nothing left in the group'}</td>
                  <td className="numeric">{percent(slot.capacity_fraction)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}

      {planned.diagnosis_tests.length > 0 ? (
        <>
          <h4>Diagnosis tests</h4>
          <ul data-testid="diagnosis-tests">
            {planned.diagnosis_tests.map((test) => (
              <li key={test.suspect}>
                {test.suspect} on {test.circuit_switch}:{' '}
                {test.circuit
                  ? `test circuit low ${test.circuit[0]} – high ${test.circuit[1]} against ${test.partner ?? 'a free port'} (touches no active link)`
                  : `waits for ${test.waiting_for ?? 'a free partner'}`}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      <h4>replace() calls, in order</h4>
      {planned.replace_calls.length === 0 ? (
        <p className="muted" data-testid="replace-calls-none">
          None: no circuit moves for this event.
        </p>
      ) : (
        <ol className="replace-calls" data-testid="replace-calls">
          {planned.replace_calls.map((call, order) => (
            <li key={order} data-testid="replace-call">
              <code>{describeCall(call)}</code>
            </li>
          ))}
        </ol>
      )}

      <h4>Circuit-switch matchings before and after</h4>
      {matchings.length === 0 ? (
        <p className="muted">No circuit switch changes for this event.</p>
      ) : (
        <>
          <MatchingLegend />
          <div className="matchings">
            {matchings.map((view) => (
              <MatchingDiagram key={view.circuitSwitch} view={view} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
