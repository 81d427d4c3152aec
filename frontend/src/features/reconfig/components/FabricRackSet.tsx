import { ErrorList } from '@/components/ErrorList';
import { FabricSelect } from '@/components/FabricSelect';
import { useCircuitSwitches } from '@/features/circuits';
import type { FabricBrief } from '@/features/fabrics';

import type { ExcludedCable } from '../api/types';
import type { FabricRackSetState } from '../forms';

interface FabricRackSetChooserProps {
  state: FabricRackSetState;
  fabrics: FabricBrief[];
  onChange: (state: FabricRackSetState) => void;
}

/**
 * A rack set built by the server from a stored fabric: the ToRs attached to the chosen circuit
 * switches, with the cables whose links are disabled, down or under a repair ticket left out.
 */
export function FabricRackSetChooser({ state, fabrics, onChange }: FabricRackSetChooserProps) {
  const switches = useCircuitSwitches(state.fabric === '' ? null : Number(state.fabric));
  const toggle = (id: number, on: boolean) =>
    onChange({
      ...state,
      circuitSwitches: on ? [...state.circuitSwitches, id] : state.circuitSwitches.filter((chosen) => chosen !== id),
    });
  return (
    <div className="sim-form" data-testid="fabric-rack-set">
      <div className="sim-form-row">
        <FabricSelect
          fabrics={fabrics}
          emptyOption="choose…"
          value={state.fabric}
          onChange={(fabric) => onChange({ fabric, circuitSwitches: [] })}
        />
      </div>
      <ErrorList error={switches.error} title="Could not load the fabric’s circuit switches." />
      {state.fabric !== '' && switches.data ? (
        switches.data.results.length === 0 ? (
          <p className="notice">This fabric has no circuit switches: add them on the Circuits page.</p>
        ) : (
          <fieldset className="filter-group">
            <legend>Circuit switches (none ticked: all)</legend>
            {switches.data.results.map((circuitSwitch) => (
              <label key={circuitSwitch.id} className="check">
                <input
                  type="checkbox"
                  checked={state.circuitSwitches.includes(circuitSwitch.id)}
                  onChange={(event) => toggle(circuitSwitch.id, event.target.checked)}
                />
                {circuitSwitch.name} ({circuitSwitch.port_count} ports, {circuitSwitch.attachments.length} ToRs)
              </label>
            ))}
          </fieldset>
        )
      ) : null}
      <p className="muted">
        The server builds the cable matrix from the switches’ attached ToRs and leaves out every cable whose link is
        disabled (by CorrOpt or an operator), down, or under a repair ticket not yet resolved.
      </p>
    </div>
  );
}

/** The cables the server left out of a fabric's rack set, each with its reason. */
export function ExcludedCables({ cables }: { cables: ExcludedCable[] }) {
  if (cables.length === 0) {
    return (
      <p className="muted" data-testid="excluded-cables">
        Every cable of the chosen circuit switches is in service.
      </p>
    );
  }
  return (
    <table className="data-table" data-testid="excluded-cables">
      <caption>Cables out of service, excluded from the rack set</caption>
      <thead>
        <tr>
          <th scope="col">Rack</th>
          <th scope="col">Circuit switch</th>
          <th scope="col" className="numeric">
            Link
          </th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {cables.map((cable) => (
          <tr key={`${cable.link}:${cable.cs}`}>
            <th scope="row">{cable.rack}</th>
            <td>{cable.circuit_switch}</td>
            <td className="numeric">{cable.link}</td>
            <td>{cable.explanation}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
