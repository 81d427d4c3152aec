import { useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { canChangeLinkState, canOverrideCapacity, useCurrentUser } from '@/features/auth';
import { CapacityChangeDialog } from '@/features/links';
import { switchPath } from '@/features/switches';

import type { FabricSwitch, TopologyLink } from '../api/types';
import { useDrainSwitch } from '../api/useDrainSwitch';
import { useSwitch } from '../api/useSwitch';
import { useUndrainSwitch } from '../api/useUndrainSwitch';
import type { PlacedSwitch } from './tierLayout';
import { describeSwitch } from './topologyModel';

interface SwitchPanelProps {
  sw: PlacedSwitch;
  tierName: string;
  links: readonly TopologyLink[];
  fabricId: number;
  onClose: () => void;
}

/** The switch clicked in the drawing: its links, whether it is drained, and Drain / Undrain for operators. */
export function SwitchPanel({ sw, tierName, links, fabricId, onClose }: SwitchPanelProps) {
  const user = useCurrentUser();
  const detail = useSwitch(sw.id);
  const [open, setOpen] = useState<'drain' | 'undrain' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const enabled = links.filter((link) => link.admin_state === 'enabled').length;
  const drained = detail.data?.drained ?? false;
  const mayChange = canChangeLinkState(user.data);
  const target = { id: sw.id, fabric: detail.data?.fabric ?? fabricId };

  return (
    <section
      className="switch-panel"
      aria-labelledby="switch-panel-heading"
      data-testid="switch-panel"
      data-switch={sw.name}
    >
      <div className="switch-panel-head">
        <h3 id="switch-panel-heading">
          {sw.name}{' '}
          {drained ? (
            <span className="badge badge-drained" data-testid="switch-drained">
              drained
            </span>
          ) : null}
        </h3>
        <button type="button" onClick={onClose} aria-label={`Close the panel of ${sw.name}`}>
          Close
        </button>
      </div>
      <p data-testid="switch-summary">{describeSwitch(sw, tierName, links)}</p>
      <ErrorList error={detail.error} title="Could not load the switch." />
      <p>
        <Link to={switchPath(sw.id)}>Open its page</Link> ·{' '}
        <Link to={`/links?fabric=${fabricId}&switch=${sw.id}`}>List its {links.length} links</Link>
      </p>
      {mayChange ? (
        <div className="state-controls">
          <button
            type="button"
            className="danger"
            disabled={enabled === 0 || detail.isPending}
            onClick={() => {
              setDone(null);
              setOpen('drain');
            }}
          >
            Drain…
          </button>
          <button
            type="button"
            disabled={!drained}
            onClick={() => {
              setDone(null);
              setOpen('undrain');
            }}
          >
            Undrain…
          </button>
          {done ? (
            <span className="success-note" role="status" data-testid="switch-change-done">
              {done}
            </span>
          ) : null}
        </div>
      ) : null}
      {mayChange ? (
        <p className="muted">
          Drain disables every enabled link of the switch for maintenance, if no ToR falls under its constraint; Undrain
          puts the links a drain took out back in service.
        </p>
      ) : null}
      {open === 'drain' ? (
        <DrainDialog
          target={target}
          name={sw.name}
          canOverride={canOverrideCapacity(user.data)}
          onClose={() => setOpen(null)}
          onDone={(message) => {
            setOpen(null);
            setDone(message);
          }}
        />
      ) : null}
      {open === 'undrain' ? (
        <UndrainDialog
          target={target}
          name={sw.name}
          onClose={() => setOpen(null)}
          onDone={(message) => {
            setOpen(null);
            setDone(message);
          }}
        />
      ) : null}
    </section>
  );
}

interface DialogProps {
  target: Pick<FabricSwitch, 'id' | 'fabric'>;
  name: string;
  onClose: () => void;
  onDone: (message: string) => void;
}

function countLinks(count: number): string {
  return count === 1 ? '1 link' : `${count} links`;
}

function DrainDialog({ target, name, canOverride, onClose, onDone }: DialogProps & { canOverride: boolean }) {
  const preview = useDrainSwitch(target, { dryRun: true });
  const apply = useDrainSwitch(target, { dryRun: false });
  return (
    <CapacityChangeDialog
      title={`Drain ${name}`}
      confirmLabel="Drain switch"
      pendingLabel="Draining…"
      preview={preview}
      onPreview={(reason) => {
        apply.reset();
        preview.mutate(reason ? { admin_reason: reason } : {});
      }}
      apply={apply}
      onConfirm={({ reason, override }) =>
        apply.mutate(
          { ...(reason ? { admin_reason: reason } : {}), ...(override ? { override_capacity: true as const } : {}) },
          { onSuccess: (answer) => onDone(`Drained: ${countLinks(answer.links.length)} disabled for maintenance.`) },
        )
      }
      onClose={onClose}
      reasonLabel="Reason (needed for an override; the links’ reason reads “maintenance: …”)"
      canOverride={canOverride}
      testId="drain-dialog"
    />
  );
}

function UndrainDialog({ target, name, onClose, onDone }: DialogProps) {
  const preview = useUndrainSwitch(target, { dryRun: true });
  const apply = useUndrainSwitch(target, { dryRun: false });
  return (
    <CapacityChangeDialog
      title={`Undrain ${name}`}
      confirmLabel="Undrain switch"
      pendingLabel="Undraining…"
      preview={preview}
      onPreview={() => {
        apply.reset();
        preview.mutate({});
      }}
      apply={apply}
      onConfirm={() =>
        apply.mutate(
          {},
          { onSuccess: (answer) => onDone(`Undrained: ${countLinks(answer.links.length)} back in service.`) },
        )
      }
      onClose={onClose}
      reasonLabel={null}
      canOverride={false}
      note="Putting links back is always allowed; CorrOpt’s optimizer re-runs on this fabric once it commits."
      testId="undrain-dialog"
    />
  );
}
