import { type FormEvent, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';

import type { CheckAnswer, RackSetParam } from '../api/types';
import { useLarryCheck } from '../api/useCalculators';
import { type Built, rackCount } from '../forms';
import { certificateText, parseUplinkVector } from '../larryData';
import { ExcludedCables } from './FabricRackSet';
import { FormProblems } from '@/components/FormProblems';
import { CableMatrix } from './RackSetEditor';

/** Whether a per-rack uplink vector fits the cabling (integral max flow), or the min cut that proves it cannot. */
export function FeasibilityCheck({ rackSet }: { rackSet: Built<RackSetParam> }) {
  const [vector, setVector] = useState('3,3,2,0');
  const [problems, setProblems] = useState<string[]>([]);
  const check = useLarryCheck();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseUplinkVector(vector, rackCount(rackSet.value));
    const errors = [...rackSet.errors, ...parsed.errors];
    setProblems(errors);
    if (errors.length === 0 && parsed.values && rackSet.value) {
      check.mutate({ rack_set: rackSet.value, uplinks: parsed.values });
    }
  };

  return (
    <>
      <form className="sim-form" aria-label="Feasibility check" onSubmit={submit} noValidate>
        <div className="sim-form-row">
          <label>
            Circuit uplinks per rack (beyond S)
            <input value={vector} onChange={(event) => setVector(event.target.value)} aria-describedby="uplinks-help" />
          </label>
          <span id="uplinks-help" className="muted sim-field">
            one count per rack, e.g. 3,3,2,0
          </span>
        </div>
        <FormProblems problems={problems} />
        <button type="submit" disabled={check.isPending}>
          {check.isPending ? 'Checking…' : 'Check'}
        </button>
      </form>
      <ErrorList error={check.error} title="The server refused the check." />
      {check.data ? <CheckResult answer={check.data} /> : null}
    </>
  );
}

function CheckResult({ answer }: { answer: CheckAnswer }) {
  const certificate = certificateText(answer);
  const rackSet = answer.inputs.rack_set;
  const name = (rack: number) => rackSet.racks?.[rack] ?? `rack ${rack}`;
  return (
    <div data-testid="check-result" data-feasible={answer.feasible}>
      {certificate ? (
        <div className="certificate" data-testid="certificate">
          <p>
            <strong>{certificate.headline}</strong>
          </p>
          <p data-testid="whole-request">{certificate.wholeRequest}</p>
          <p data-testid="bottleneck">{certificate.bottleneck}</p>
          <ul>
            {certificate.details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="muted">Engine, on the bottleneck racks: {answer.min_cut?.explanation}</p>
        </div>
      ) : (
        <p className="feasible" data-testid="feasible">
          <strong>Feasible:</strong> every rack gets its {answer.requested.join(', ')} circuit uplinks.
        </p>
      )}
      {answer.inputs.rack_set_source ? (
        <>
          <p className="muted" data-testid="built-from">
            Built from fabric {answer.inputs.rack_set_source.fabric.name}, circuit switches{' '}
            {answer.inputs.rack_set_source.circuit_switches.map((circuitSwitch) => circuitSwitch.name).join(', ')}.
          </p>
          <CableMatrix rackSet={rackSet} cut={answer.min_cut} />
          <ExcludedCables cables={answer.inputs.rack_set_source.excluded_cables} />
        </>
      ) : certificate ? (
        <CableMatrix rackSet={rackSet} cut={answer.min_cut} />
      ) : null}
      <table className="data-table" data-testid="check-assignment">
        <caption>
          Circuits per rack and circuit switch{answer.feasible ? '' : ' in the best partial assignment'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Rack</th>
            <th scope="col" className="numeric">
              Requested
            </th>
            <th scope="col" className="numeric">
              Granted
            </th>
            {answer.assignment[0]?.map((_, cs) => (
              <th key={cs} scope="col" className="numeric">
                CS {cs}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {answer.assignment.map((row, rack) => (
            <tr key={rack}>
              <th scope="row">{name(rack)}</th>
              <td className="numeric">{answer.requested[rack]}</td>
              <td className="numeric">{answer.granted[rack]}</td>
              {row.map((count, cs) => (
                <td key={cs} className="numeric">
                  {count}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
