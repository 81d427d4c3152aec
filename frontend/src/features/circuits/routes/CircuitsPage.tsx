import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { FabricSelect } from '@/components/FabricSelect';
import { Loading } from '@/components/Loading';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';

import type { CircuitSwitch, Demand } from '../api/types';
import { useCircuitSwitches } from '../api/useCircuitSwitches';
import { useDeleteCircuitSwitch } from '../api/useDeleteCircuitSwitch';
import { useDeleteDemand } from '../api/useDeleteDemand';
import { useDemands } from '../api/useDemands';
import { useSaveCircuitSwitch } from '../api/useSaveCircuitSwitch';
import { useScheduleJobs } from '../api/useScheduleJobs';
import { useSubmitSchedule } from '../api/useSubmitSchedule';
import { useTors } from '../api/useTors';
import { useUploadDemand } from '../api/useUploadDemand';
import { CircuitSwitchForm } from '../components/CircuitSwitchForm';
import { CircuitSwitchesTable } from '../components/CircuitSwitchesTable';
import { DemandPreview } from '../components/DemandPreview';
import { DemandUploadForm } from '../components/DemandUploadForm';
import { DemandsTable } from '../components/DemandsTable';
import { ScheduleForm } from '../components/ScheduleForm';
import { SchedulesTable } from '../components/SchedulesTable';
import { canEditCircuitSwitches, canPlanCircuits } from '../roles';
import '../circuits.css';

const RECENT = 15;

/** c-Through circuit schedules of one fabric: its circuit switches, demand series, a schedule form and recent runs. */
export function CircuitsPage() {
  const user = useCurrentUser();
  const fabrics = useFabricChoices();
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('fabric'));
  const fabricList = fabrics.data?.results ?? [];
  const fabric = fabricList.find((f) => f.id === chosen)?.id ?? fabricList[0]?.id ?? null;
  const mayEdit = canEditCircuitSwitches(user.data);
  const mayPlan = canPlanCircuits(user.data);

  return (
    <section aria-labelledby="circuits-heading">
      <h1 id="circuits-heading">Circuit schedules</h1>
      <p className="lede">
        An optical circuit switch joins pairs of racks with high-capacity circuits. Every period the controller picks
        the circuits from the rack-to-rack demand (c-Through: a maximum-weight matching), and every changed port goes
        dark for the switch’s dark time. Upload a demand series, plan it on a circuit switch and compare the exact
        matching with greedy and round-robin.
      </p>
      {fabrics.isPending ? <Loading label="Loading fabrics…" /> : null}
      <ErrorList error={fabrics.error} title="Could not load fabrics." />
      {fabrics.data && fabricList.length === 0 ? <p>No fabric yet: import one first.</p> : null}
      {fabricList.length > 1 ? (
        <form className="filters" aria-label="Fabric" onSubmit={(event) => event.preventDefault()}>
          <FabricSelect
            fabrics={fabricList}
            value={fabric}
            onChange={(chosen) => setParams({ fabric: chosen }, { replace: true })}
          />
        </form>
      ) : null}
      {fabric !== null ? <FabricCircuits key={fabric} fabric={fabric} mayEdit={mayEdit} mayPlan={mayPlan} /> : null}
    </section>
  );
}

function FabricCircuits({ fabric, mayEdit, mayPlan }: { fabric: number; mayEdit: boolean; mayPlan: boolean }) {
  const switches = useCircuitSwitches(fabric);
  const demands = useDemands(fabric);
  const jobs = useScheduleJobs(fabric, RECENT);
  const tors = useTors(mayEdit ? fabric : null);
  const save = useSaveCircuitSwitch();
  const upload = useUploadDemand();
  const submit = useSubmitSchedule();
  const deleteSwitch = useDeleteCircuitSwitch();
  const deleteDemand = useDeleteDemand();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<CircuitSwitch | 'new' | null>(null);
  const [previewed, setPreviewed] = useState<Demand | null>(null);
  const switchList = switches.data?.results ?? [];
  const demandList = demands.data?.results ?? [];

  const closeEditor = () => {
    setEditing(null);
    save.reset();
  };

  return (
    <>
      <div className="circuits-section">
        <h2>Circuit switches</h2>
        {switches.isPending ? <Loading label="Loading circuit switches…" /> : null}
        <ErrorList error={switches.error} title="Could not load circuit switches." />
        {switches.data && switchList.length === 0 ? (
          <p data-testid="circuit-switches-empty">This fabric has no circuit switch yet.</p>
        ) : null}
        {switchList.length > 0 ? (
          <CircuitSwitchesTable
            switches={switchList}
            onEdit={
              mayEdit
                ? (cs) => {
                    save.reset();
                    setEditing(cs);
                  }
                : undefined
            }
            onDelete={
              mayEdit
                ? (cs) =>
                    deleteSwitch.mutateAsync(cs.id).then(() => {
                      if (editing !== 'new' && editing?.id === cs.id) closeEditor();
                    })
                : undefined
            }
          />
        ) : null}
        {mayEdit && editing === null ? (
          <p>
            <button type="button" onClick={() => setEditing('new')}>
              New circuit switch
            </button>
          </p>
        ) : null}
        {mayEdit && editing !== null ? (
          <>
            <ErrorList error={tors.error} title="Could not load the fabric's ToRs." />
            <CircuitSwitchForm
              key={editing === 'new' ? 'new' : editing.id}
              fabric={fabric}
              tors={tors.data?.results ?? []}
              editing={editing === 'new' ? null : editing}
              saving={save.isPending}
              error={save.error}
              onSave={(body) =>
                save.mutate({ id: editing === 'new' ? null : editing.id, body }, { onSuccess: closeEditor })
              }
              onCancel={closeEditor}
            />
          </>
        ) : null}
        {!mayEdit ? <p className="muted">Planners and admins create, edit and delete circuit switches.</p> : null}
      </div>

      <div className="circuits-section">
        <h2>Demand</h2>
        {demands.isPending ? <Loading label="Loading demand…" /> : null}
        <ErrorList error={demands.error} title="Could not load demand." />
        {demands.data && demandList.length === 0 ? <p data-testid="demands-empty">No demand uploaded yet.</p> : null}
        {demandList.length > 0 ? (
          <DemandsTable
            demands={demandList}
            shown={previewed?.id ?? null}
            onShow={setPreviewed}
            onDelete={
              mayPlan
                ? (demand) =>
                    deleteDemand.mutateAsync(demand.id).then(() => {
                      if (previewed?.id === demand.id) setPreviewed(null);
                    })
                : undefined
            }
          />
        ) : null}
        {previewed ? <DemandPreview key={previewed.id} demand={previewed} circuitSwitch={switchList[0]?.id} /> : null}
        {mayPlan ? (
          <div className="panel">
            <h3>Upload demand</h3>
            <DemandUploadForm
              fabric={fabric}
              uploading={upload.isPending}
              error={upload.error}
              onUpload={(body, reset) => upload.mutate(body, { onSuccess: reset })}
            />
          </div>
        ) : null}
      </div>

      <div className="circuits-section">
        <h2>New schedule</h2>
        {mayPlan ? (
          <div className="panel">
            <ScheduleForm
              key={`${demandList[0]?.id ?? 0}:${switchList[0]?.id ?? 0}`}
              demands={demandList}
              switches={switchList}
              submitting={submit.isPending}
              error={submit.error}
              onSubmit={(request) =>
                submit.mutate(request, { onSuccess: (job) => void navigate(`/circuits/schedules/${job.id}`) })
              }
            />
          </div>
        ) : (
          <p className="notice" data-testid="circuits-readonly">
            Planners, operators and admins upload demand and start schedules; you can open the results below.
          </p>
        )}
      </div>

      <div className="circuits-section">
        <h2>Recent schedules</h2>
        {jobs.isPending ? <Loading label="Loading schedules…" /> : null}
        <ErrorList error={jobs.error} title="Could not load schedules." />
        {jobs.data && jobs.data.results.length === 0 ? <p data-testid="schedules-empty">No schedules yet.</p> : null}
        {jobs.data && jobs.data.results.length > 0 ? <SchedulesTable jobs={jobs.data.results} /> : null}
      </div>
    </>
  );
}
