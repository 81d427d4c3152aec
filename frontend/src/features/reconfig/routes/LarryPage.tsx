import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { Loading } from '@/components/Loading';
import { ErrorList } from '@/components/ErrorList';
import { defaultFabric } from '@/components/defaultFabric';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';

import { LARRY_KIND, type RackSetParam } from '../api/types';
import { useSubmitLarryRun } from '../api/useSubmitReconfigJob';
import { CostComparison } from '../components/CostComparison';
import { FabricRackSetChooser } from '../components/FabricRackSet';
import { FeasibilityCheck } from '../components/FeasibilityCheck';
import { LarryRunForm } from '../components/LarryRunForm';
import { RackSetEditor } from '../components/RackSetEditor';
import { RecentJobs } from '../components/RecentJobs';
import {
  type Built,
  buildFabricRackSet,
  type FabricRackSetState,
  INITIAL_FABRIC_RACK_SET,
  parseRackSet,
  RACK_SET_PRESETS,
  rackSetText,
} from '../forms';
import { canRunReconfigJobs } from '../roles';
import '../reconfig.css';

const RACK_SET_SOURCES = [
  { value: 'document', label: 'A document (preset, typed or uploaded)' },
  { value: 'fabric', label: 'A stored fabric’s circuit switches' },
] as const;

export function LarryPage() {
  const user = useCurrentUser();
  const submit = useSubmitLarryRun();
  const fabrics = useFabricChoices();
  const navigate = useNavigate();
  const [rackSetDoc, setRackSetDoc] = useState(() => rackSetText(RACK_SET_PRESETS[0]!.rackSet));
  const [searchParams] = useSearchParams();
  // Until the planner chooses, the rack set is a stored fabric's (the URL's, else the first) when there
  // is one: racks come from what is stored, and a typed document stays an option.
  const [chosenSource, setRackSetSource] = useState<'document' | 'fabric' | null>(null);
  const [chosenFabricRackSet, setFabricRackSet] = useState<FabricRackSetState | null>(null);
  const firstFabric = defaultFabric(fabrics.data?.results ?? [], searchParams.get('fabric'));
  const rackSetSource = chosenSource ?? (firstFabric === null ? 'document' : 'fabric');
  const fabricRackSet = useMemo(
    () =>
      chosenFabricRackSet ?? {
        ...INITIAL_FABRIC_RACK_SET,
        fabric: firstFabric === null ? '' : String(firstFabric),
      },
    [chosenFabricRackSet, firstFabric],
  );
  const rackSet: Built<RackSetParam> = useMemo(
    () => (rackSetSource === 'document' ? parseRackSet(rackSetDoc) : buildFabricRackSet(fabricRackSet)),
    [rackSetSource, rackSetDoc, fabricRackSet],
  );

  return (
    <section aria-labelledby="larry-heading">
      <h1 id="larry-heading">Rack uplinks on demand</h1>
      <p className="lede">
        Larry lets a congested rack borrow idle uplinks of its neighbours through per-rack circuit switches. Describe a
        rack set, then run the controller over uploaded ToR byte counters (uplinks per rack over time and the circuits
        that moved, beside the baselines), check whether an uplink vector fits the cabling, and compare costs.
      </p>
      <div className="panel">
        <h2>Rack set</h2>
        {/* The default source depends on whether a fabric is stored: until the fabrics are known, no
            choice is shown (a choice made earlier flipped to the stored fabric when they arrived). */}
        {fabrics.isPending ? (
          <Loading label="Loading fabrics…" />
        ) : (
          <>
            <ChoiceFieldset
              legend="Rack set from"
              name="rack-set-source"
              options={RACK_SET_SOURCES}
              value={rackSetSource}
              onChange={setRackSetSource}
              className="filter-group sim-trace"
            />
            {rackSetSource === 'document' ? (
              <RackSetEditor text={rackSetDoc} parsed={parseRackSet(rackSetDoc)} onChange={setRackSetDoc} />
            ) : (
              <FabricRackSetChooser
                state={fabricRackSet}
                fabrics={fabrics.data?.results ?? []}
                onChange={setFabricRackSet}
              />
            )}
          </>
        )}
      </div>
      {canRunReconfigJobs(user.data) ? (
        <div className="panel">
          <h2>New uplink run</h2>
          <ErrorList error={fabrics.error} title="Could not load fabrics." />
          <LarryRunForm
            rackSet={rackSet}
            fabrics={fabrics.data?.results ?? []}
            submitting={submit.isPending}
            onSubmit={(job) => submit.mutate(job, { onSuccess: (created) => void navigate(`/larry/${created.id}`) })}
          />
          <ErrorList error={submit.error} title="The server refused the run." />
        </div>
      ) : (
        <p className="notice" data-testid="larry-readonly">
          Planners, operators and admins run the controller; you can open the runs below, check feasibility and compare
          costs.
        </p>
      )}
      <div className="panel">
        <h2>Feasibility check</h2>
        <p className="muted">
          Integral max flow over the cables in service: source → rack (its request) → circuit switch (cables) → sink
          (R). An infeasible request comes with the min cut that proves it.
        </p>
        <FeasibilityCheck rackSet={rackSet} />
      </div>
      <div className="panel">
        <h2>Cost comparison</h2>
        <CostComparison />
      </div>
      <h2>Recent runs</h2>
      <RecentJobs kind={LARRY_KIND} noun="run" path="/larry" />
    </section>
  );
}
