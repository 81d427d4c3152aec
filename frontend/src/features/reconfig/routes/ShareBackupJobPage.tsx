import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { JobStatus } from '@/features/jobs';
import { formatCount } from '@/lib/format';

import type { ShareBackupResult } from '../api/types';
import { useReconfigJob } from '../api/useReconfigJob';
import { EventDetail } from '../components/EventDetail';
import { EventTimeline } from '../components/EventTimeline';
import { FailureGroupGrid } from '../components/FailureGroupGrid';
import { describeEvent, eventSwitches, groupsAfter } from '../sharebackupData';
import '../reconfig.css';

export function ShareBackupJobPage() {
  const jobId = Number(useParams().jobId);
  const job = useReconfigJob<ShareBackupResult>(jobId, 'sharebackup.plan');

  return (
    <section aria-labelledby="plan-heading">
      <p className="breadcrumb">
        <Link to="/sharebackup">Failover</Link> /
      </p>
      <h1 id="plan-heading">Failover plan #{jobId}</h1>
      {job.isPending ? <Loading label="Loading the plan…" /> : null}
      <ErrorList error={job.error} title="Could not load the plan." />
      {job.data ? (
        <>
          <JobStatus job={job.data} label="Plan" testId="plan" />
          {job.data.state === 'succeeded' && job.data.result ? (
            <PlanView jobId={jobId} result={job.data.result} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function PlanView({ jobId, result }: { jobId: number; result: ShareBackupResult }) {
  const [selected, setSelected] = useState(0);
  const groups = useMemo(() => groupsAfter(result, selected), [result, selected]);
  const planned = result.events[selected];
  const { counts, fabric, inputs } = result;
  const base = `/api/jobs/${jobId}/result/`;

  return (
    <div className="plan-result">
      <dl className="facts" data-testid="plan-facts">
        <div>
          <dt>Fat tree</dt>
          <dd>
            {inputs.fabric ? (
              <>
                <Link to={`/fabrics/${inputs.fabric.id}`}>{inputs.fabric.name}</Link>, read as{' '}
              </>
            ) : null}
            k = {fabric.k}, {fabric.pods} pod{fabric.pods === 1 ? '' : 's'}, {fabric.backups} backup
            {fabric.backups === 1 ? '' : 's'} per group: {formatCount(counts.active_switches)} active switches,{' '}
            {formatCount(counts.backup_switches)} backups in {counts.failure_groups} failure groups,{' '}
            {formatCount(counts.hosts)} hosts, {formatCount(counts.circuit_switches)} circuit switches with{' '}
            {formatCount(counts.circuit_ports)} ports
          </dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>
            {inputs.events.source === 'synthetic'
              ? `synthetic log of ${inputs.events.count} events (seed ${inputs.events.seed})`
              : `${inputs.events.count} events${inputs.events.name ? ` from ${inputs.events.name}` : ''}`}
            ; circuit switching {inputs.reconfig_ms} ms
          </dd>
        </div>
        <div>
          <dt>Verifier</dt>
          <dd data-testid="plan-verdict" data-sound={result.verdict.sound}>
            {result.verdict.sound
              ? `sound: every matching valid, the logical fat tree restored after each of ${result.verdict.checked_events} events (except in DEGRADED groups), one replace() per attached circuit switch`
              : `${result.verdict.violations} violation${result.verdict.violations === 1 ? '' : 's'} found`}
          </dd>
        </div>
      </dl>
      {result.violations.length > 0 ? (
        <div className="error-box" role="alert" data-testid="plan-violations">
          <p className="error-title">The verifier found problems in this plan.</p>
          <ul>
            {result.violations.map((violation) => (
              <li key={violation}>{violation}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="sim-downloads" aria-label="Downloads">
        <a href={`${base}?format=json`} download>
          Plan (JSON)
        </a>
        <a href={`${base}?format=csv&table=events`} download>
          Events (CSV)
        </a>
        <a href={`${base}?format=csv&table=replace_calls`} download>
          replace() calls (CSV)
        </a>
      </div>

      <h2>Event timeline</h2>
      {result.events.length === 0 ? (
        <p>The log holds no events.</p>
      ) : (
        <EventTimeline events={result.events} selected={selected} onSelect={setSelected} />
      )}

      <h2>Failure groups and their backups</h2>
      <FailureGroupGrid
        views={groups}
        highlighted={planned ? eventSwitches(planned) : new Set()}
        caption={
          planned
            ? `After event #${planned.index} (${describeEvent(planned.event)}). Each box is a switch (m = member), with the slot it plays (s).`
            : 'Before any event: member i of each group plays slot i, the others are free backups.'
        }
      />
      {planned ? <EventDetail plan={result} index={selected} /> : null}
    </div>
  );
}
