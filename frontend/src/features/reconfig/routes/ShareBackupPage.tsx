import { useNavigate } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';

import { SHAREBACKUP_KIND } from '../api/types';
import { useSubmitShareBackupPlan } from '../api/useSubmitReconfigJob';
import { PoolSizing } from '../components/PoolSizing';
import { RecentJobs } from '../components/RecentJobs';
import { ShareBackupForm } from '../components/ShareBackupForm';
import { canRunReconfigJobs } from '../roles';
import '../reconfig.css';

export function ShareBackupPage() {
  const user = useCurrentUser();
  const fabrics = useFabricChoices();
  const submit = useSubmitShareBackupPlan();
  const navigate = useNavigate();

  return (
    <section aria-labelledby="sharebackup-heading">
      <h1 id="sharebackup-heading">Failover with shared backups</h1>
      <p className="lede">
        ShareBackup puts a shared backup switch in place of a failed one by reprogramming the circuit switches between
        the fat tree’s layers. Plan an event log: for each event the ordered replace() calls, the backup pools, groups
        left without a backup (DEGRADED) and their rerouting fallback, checked by an independent verifier. The wiring
        and the diagnosis procedure are reconstructions (the ShareBackup source is a fragment; see docs/reconfig.md).
      </p>
      {canRunReconfigJobs(user.data) ? (
        <div className="panel">
          <h2>New failover plan</h2>
          {/* The form starts once the fabrics are known: remounting it when they arrive wiped what
              the planner had typed (its k and pods) and planned the defaults instead. */}
          {fabrics.isPending ? (
            <Loading label="Loading fabrics…" />
          ) : (
            <ShareBackupForm
              fabrics={fabrics.data?.results ?? []}
              submitting={submit.isPending}
              error={submit.error}
              onSubmit={(job) =>
                submit.mutate(job, { onSuccess: (created) => void navigate(`/sharebackup/${created.id}`) })
              }
            />
          )}
        </div>
      ) : (
        <p className="notice" data-testid="sharebackup-readonly">
          Planners, operators and admins plan failovers; you can open the plans below and size backup pools.
        </p>
      )}
      <div className="panel">
        <h2>Backup-pool sizing</h2>
        <ErrorList error={fabrics.error} title="Could not load fabrics." />
        <PoolSizing fabrics={fabrics.data?.results ?? []} />
      </div>
      <h2>Recent plans</h2>
      <RecentJobs kind={SHAREBACKUP_KIND} noun="plan" path="/sharebackup" />
    </section>
  );
}
