import { useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { canChangeLinkState, useCurrentUser } from '@/features/auth';
import { AddedPenalty, LossyLinksTable, formatPenalty } from '@/features/maintenance';

import type { RecoveryApplied, RecoveryProposal } from '../api/types';
import { changedProposal, useApplyRecovery, useFabricRecovery } from '../api/useFabricRecovery';

export interface RecoveryPanelProps {
  proposal: RecoveryProposal;
  /** Operators and admins apply a recovery; everyone else reads it. */
  canApply: boolean;
  pending: boolean;
  /** The answer of the last apply, shown until the proposal changes again. */
  applied: RecoveryApplied | undefined;
  error: unknown;
  /** The apply was refused because the proposal changed meanwhile (the panel shows the fresh one). */
  changed: boolean;
  onApply: (links: number[]) => void;
}

/**
 * Capacity recovery on the fabric page (issue #18): the ToRs under their requirement now, worst
 * first, the lossy links whose re-enabling brings them back at the least added penalty, the ToRs no
 * lossy link can bring back (they need a repair), and Apply for those who may change link state.
 */
export function RecoveryPanel({ proposal, canApply, pending, applied, error, changed, onApply }: RecoveryPanelProps) {
  const [confirming, setConfirming] = useState(false);
  const ids = proposal.links.map((link) => link.id);
  const count = ids.length === 1 ? '1 link' : `${ids.length} links`;
  return (
    <div className="recovery" data-testid="recovery">
      {applied ? (
        <p className="success-box" role="status" data-testid="recovery-applied">
          {appliedSentence(applied)}
        </p>
      ) : null}
      {changed ? (
        <p className="notice" role="alert" data-testid="recovery-changed">
          The proposal changed while you looked at it: here is the one for the links now. Check it and apply again.
        </p>
      ) : (
        <ErrorList error={error} title="Could not apply the recovery." />
      )}
      <p data-testid="recovery-detail">{proposal.detail}</p>
      {proposal.under_tors.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table" data-testid="recovery-under">
            <caption>ToRs under their requirement, worst first</caption>
            <thead>
              <tr>
                <th scope="col">ToR</th>
                <th scope="col" className="numeric">
                  Up-paths
                </th>
                <th scope="col" className="numeric">
                  Required
                </th>
              </tr>
            </thead>
            <tbody>
              {proposal.under_tors.map((tor) => (
                <tr key={tor.switch} data-testid="recovery-under-tor" data-tor={tor.name}>
                  <th scope="row">{tor.name}</th>
                  <td className="numeric">
                    {tor.paths} of {tor.design_paths}
                  </td>
                  <td className="numeric">{tor.required_paths}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {proposal.links.length > 0 ? (
        <>
          <h3>Re-enable these lossy links</h3>
          <p data-testid="recovery-links-why">
            They are disabled for corruption but still work (they pass traffic with a small loss when enabled): enabling
            them brings those ToRs back at the least added penalty. CorrOpt disables them again once capacity is back.
          </p>
          <LossyLinksTable links={proposal.links} testId="recovery-links" rowTestId="recovery-link" />
          <AddedPenalty
            penalty={proposal.added_penalty}
            provenOptimal={proposal.proven_optimal}
            testId="recovery-penalty"
          />
        </>
      ) : null}
      {proposal.unreachable_tors.length > 0 ? (
        <>
          <h3>Need a repair instead</h3>
          <ul data-testid="recovery-unreachable">
            {proposal.unreachable_tors.map((tor) => (
              <li key={tor.switch} data-tor={tor.name}>
                {tor.name}: no lossy link brings it above {tor.paths_best} of the {tor.required_paths} up-paths it
                requires;{' '}
                {tor.links_out.length > 0 ? (
                  <>
                    repair its uplinks out of service:{' '}
                    {tor.links_out.map((link, i) => (
                      <span key={link.id}>
                        {i > 0 ? ', ' : ''}
                        <Link to={`/links/${link.id}`}>{link.name}</Link> ({link.state})
                      </span>
                    ))}
                    .
                  </>
                ) : (
                  'repair the links out of service on its paths.'
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {proposal.links.length > 0 ? (
        canApply ? (
          confirming ? (
            <div className="notice" data-testid="recovery-confirm">
              <p>
                This puts {proposal.links.map((link) => link.name).join(', ')} back in service: they pass traffic with
                their loss until CorrOpt disables them once capacity is back.
              </p>
              <div className="button-row">
                <button
                  type="button"
                  className="primary"
                  onClick={() => {
                    setConfirming(false);
                    onApply(ids);
                  }}
                >
                  Confirm: re-enable {count}
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <div className="button-row">
              <button
                type="button"
                className="primary"
                disabled={pending}
                onClick={() => setConfirming(true)}
                data-testid="recovery-apply"
              >
                {pending ? 'Applying…' : `Apply: re-enable ${count}`}
              </button>
            </div>
          )
        ) : (
          <p className="muted" data-testid="recovery-read-only">
            Read only: operators and admins apply a recovery, since it puts corrupting links back in service.
          </p>
        )
      ) : null}
      {proposal.auto_restore ? (
        <p className="muted" data-testid="recovery-auto">
          This fabric applies the recovery by itself when links go down (auto-restore).
        </p>
      ) : null}
    </div>
  );
}

/**
 * What the apply did, naming the links. The server's detail ends with the fabric's state now, which the
 * panel already shows as the (fresh) proposal's detail: said once, below.
 */
function appliedSentence(applied: RecoveryApplied): string {
  const count = applied.enabled.length === 1 ? '1 lossy link' : `${applied.enabled.length} lossy links`;
  const names = applied.enabled.map((link) => link.name).join(', ');
  return `Enabled ${count}: ${names} (added penalty ${formatPenalty(applied.added_penalty)}).`;
}

/** Shown while a ToR is under its requirement (or right after a recovery, with its answer). */
export function FabricRecovery({ fabricId }: { fabricId: number }) {
  const recovery = useFabricRecovery(fabricId);
  const apply = useApplyRecovery(fabricId);
  const user = useCurrentUser();
  if (recovery.error) return <ErrorList error={recovery.error} title="Could not load the capacity recovery." />;
  const proposal = recovery.data;
  if (!proposal || (proposal.under_tors.length === 0 && !apply.data)) return null;
  return (
    <section className="panel" aria-labelledby="recovery-heading">
      <h2 id="recovery-heading">Capacity recovery</h2>
      <RecoveryPanel
        proposal={proposal}
        canApply={canChangeLinkState(user.data)}
        pending={apply.isPending}
        applied={apply.data}
        error={apply.error}
        changed={changedProposal(apply.error) !== null}
        onApply={(links) => apply.mutate({ links })}
      />
    </section>
  );
}
