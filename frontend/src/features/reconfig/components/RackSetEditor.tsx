import { useState } from 'react';

import { FormField } from '@/components/FormField';

import type { MinCut, RackSetWithNames } from '../api/types';
import { type Built, RACK_SET_PRESETS, rackSetText, readFile } from '../forms';
import { usableCables } from '../larryData';
import { FormProblems } from '@/components/FormProblems';

interface RackSetEditorProps {
  text: string;
  parsed: Built<RackSetWithNames>;
  onChange: (text: string) => void;
}

/** The rack-set document: a preset of the reference, typed JSON or an uploaded file. */
export function RackSetEditor({ text, parsed, onChange }: RackSetEditorProps) {
  // A file that is not text is said at the file field; the document typed so far stays.
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const preset = RACK_SET_PRESETS.find((candidate) => rackSetText(candidate.rackSet) === text)?.id ?? '';
  return (
    <div className="sim-form" data-testid="rack-set">
      <div className="sim-form-row">
        <label>
          Preset
          <select
            value={preset}
            onChange={(event) => {
              const chosen = RACK_SET_PRESETS.find((candidate) => candidate.id === event.target.value);
              if (chosen) onChange(rackSetText(chosen.rackSet));
            }}
          >
            <option value="">custom</option>
            {RACK_SET_PRESETS.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.label}
              </option>
            ))}
          </select>
        </label>
        <FormField
          label="Or upload a rack-set file (JSON)"
          className="sim-field"
          problems={fileProblem ? [fileProblem] : undefined}
        >
          {(aria) => (
            <input
              type="file"
              accept=".json,application/json"
              onChange={(event) =>
                readFile(
                  event.target.files?.[0],
                  (upload) => {
                    setFileProblem(upload?.problem);
                    if (upload && !upload.problem) onChange(upload.text);
                  },
                  'JSON',
                )
              }
              {...aria}
            />
          )}
        </FormField>
      </div>
      <label className="wide-label">
        Rack set (JSON: static_uplinks S, cables[rack][circuit switch], cs_uplinks R per circuit switch, capacity_gbps,
        excluded [[rack, cs], …] for cables out of service, optional racks names)
        <textarea
          className="rack-set-json"
          value={text}
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
      <FormProblems problems={parsed.errors} />
      {parsed.value ? <CableMatrix rackSet={parsed.value} /> : null}
    </div>
  );
}

/** Cables in service per rack and circuit switch; excluded cables and a min cut are marked. */
export function CableMatrix({ rackSet, cut }: { rackSet: RackSetWithNames; cut?: MinCut | null }) {
  const usable = usableCables(rackSet);
  const switches = rackSet.cs_uplinks.length;
  const crossing = new Set(cut?.cables.map(([tor, cs]) => `${tor}:${cs}`) ?? []);
  const cutRacks = new Set(cut?.racks ?? []);
  const cutSwitches = new Set(cut?.circuit_switches ?? []);
  return (
    <div className="table-scroll">
      <table className="data-table cable-matrix" data-testid="cable-matrix">
        <caption>
          Cables in service (of those laid) from each rack to each circuit switch; S = {rackSet.static_uplinks} static
          uplinks per rack at {rackSet.capacity_gbps} Gbit/s
        </caption>
        <thead>
          <tr>
            <th scope="col">Rack</th>
            {Array.from({ length: switches }, (_, cs) => (
              <th key={cs} scope="col" className={`numeric${cutSwitches.has(cs) ? ' in-cut' : ''}`}>
                CS {cs}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rackSet.cables.map((row, tor) => (
            <tr key={tor}>
              <th scope="row" className={cutRacks.has(tor) ? 'in-cut' : undefined}>
                {rackSet.racks?.[tor] ?? `rack ${tor}`}
              </th>
              {row.map((laid, cs) => {
                const inService = usable[tor]?.[cs] ?? laid;
                const classes = [
                  'numeric',
                  inService < laid ? 'cable-out' : '',
                  crossing.has(`${tor}:${cs}`) ? 'cut-cable' : '',
                ].filter(Boolean);
                return (
                  <td key={cs} className={classes.join(' ')}>
                    {inService < laid ? `${inService} of ${laid}` : laid}
                  </td>
                );
              })}
            </tr>
          ))}
          <tr>
            <th scope="row">uplinks R</th>
            {rackSet.cs_uplinks.map((uplinks, cs) => (
              <td key={cs} className="numeric">
                {uplinks}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
