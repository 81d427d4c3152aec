import { useNavigate } from 'react-router';

import { ErrorList } from '@/components/ErrorList';

import { useRunOptimizer } from '../api/useRunOptimizer';

/** "Run optimizer now": queues CorrOpt's optimizer on the fabric and opens the run's page. Operators and admins. */
export function RunOptimizer({ fabricId }: { fabricId: number }) {
  const run = useRunOptimizer(fabricId);
  const navigate = useNavigate();
  return (
    <div className="run-optimizer" data-testid="run-optimizer">
      <button
        type="button"
        className="primary"
        disabled={run.isPending}
        onClick={() => run.mutate(undefined, { onSuccess: (job) => navigate(`/optimizer/${job.id}`) })}
      >
        {run.isPending ? 'Starting the optimizer…' : 'Run optimizer now'}
      </button>
      <span className="muted">
        Re-examines every corrupting link in service: disables what capacity now allows, and names the ToR that keeps
        each of the others.
      </span>
      <ErrorList error={run.error} title="The optimizer did not start." />
    </div>
  );
}
