import { type FormEvent, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { FormProblems } from '@/components/FormProblems';
import { formatCount } from '@/lib/format';

import type { CostsAnswer } from '../api/types';
import { useReconfigCosts } from '../api/useCalculators';
import { formatCost } from '../format';
import { buildCostsRequest, type CostFormState, INITIAL_COST_FORM } from '../forms';
import { costGroups } from '../larryData';

type Field = { key: keyof CostFormState; label: string };

const SECTIONS: { legend: string; fields: Field[] }[] = [
  {
    legend: 'Rack set',
    fields: [
      { key: 'racks', label: 'Racks m' },
      { key: 'servers', label: 'Server links per rack' },
      { key: 'staticUplinks', label: 'Static design: uplinks per rack' },
      { key: 'larryS', label: 'Larry S (static uplinks)' },
      { key: 'larryL', label: 'Larry L (links to the CSs)' },
      { key: 'larryR', label: 'Larry R (uplinks per CS)' },
    ],
  },
  {
    legend: 'Fat tree',
    fields: [
      { key: 'k', label: 'k' },
      { key: 'pods', label: 'Pods' },
      { key: 'backups', label: 'ShareBackup backups per group' },
    ],
  },
  {
    legend: 'Price sheet (units of one packet-switch port)',
    fields: [
      { key: 'packetPort', label: 'Packet-switch port' },
      { key: 'circuitPort', label: 'Circuit-switch port' },
      { key: 'activeCable', label: 'Active cable' },
      { key: 'passiveCable', label: 'Passive cable' },
    ],
  },
];

/** Static oversubscription vs Larry vs ShareBackup: counts and cost under a price sheet. */
export function CostComparison() {
  const [form, setForm] = useState<CostFormState>(INITIAL_COST_FORM);
  const [problems, setProblems] = useState<string[]>([]);
  const costs = useReconfigCosts();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildCostsRequest(form);
    setProblems(built.errors);
    if (built.value) costs.mutate(built.value);
  };

  return (
    <>
      <form className="sim-form cost-form" aria-label="Cost comparison" onSubmit={submit} noValidate>
        {SECTIONS.map((section) => (
          <fieldset key={section.legend} className="filter-group">
            <legend>{section.legend}</legend>
            {section.fields.map((field) => (
              <label key={field.key}>
                {field.label}
                <input
                  inputMode="decimal"
                  value={form[field.key]}
                  onChange={(event) => setForm((current) => ({ ...current, [field.key]: event.target.value }))}
                />
              </label>
            ))}
          </fieldset>
        ))}
        <p className="muted">
          The circuit-switch port costs 0.3 of a packet-switch port by default (Larry’s ratio); the cable prices are
          assumptions. Larry’s real cost model is confidential, so this one is proposed (docs/reconfig.md).
        </p>
        <FormProblems problems={problems} />
        <button type="submit" disabled={costs.isPending}>
          {costs.isPending ? 'Comparing…' : 'Compare costs'}
        </button>
      </form>
      <ErrorList error={costs.error} title="The server refused the comparison." />
      {costs.data ? <CostTable answer={costs.data} /> : null}
    </>
  );
}

export function CostTable({ answer }: { answer: CostsAnswer }) {
  return (
    <div className="table-scroll" data-testid="cost-table">
      {costGroups(answer.designs).map((group) => (
        <table key={group.comparison} className="data-table">
          <caption>
            {group.title}: cost relative to {group.baseline}
          </caption>
          <thead>
            <tr>
              <th scope="col">Design</th>
              <th scope="col" className="numeric">
                Packet-switch ports
              </th>
              <th scope="col" className="numeric">
                Circuit-switch ports
              </th>
              <th scope="col" className="numeric">
                Active cables
              </th>
              <th scope="col" className="numeric">
                Passive cables
              </th>
              <th scope="col" className="numeric">
                Cost
              </th>
              <th scope="col" className="numeric">
                Normalised
              </th>
            </tr>
          </thead>
          <tbody>
            {group.rows.map((row) => (
              <tr key={row.design} data-testid="cost-row">
                <th scope="row">{row.design}</th>
                <td className="numeric">{formatCount(row.packet_ports)}</td>
                <td className="numeric">{formatCount(row.circuit_ports)}</td>
                <td className="numeric">{formatCount(row.active_cables)}</td>
                <td className="numeric">{formatCount(row.passive_cables)}</td>
                <td className="numeric">{formatCost(row.cost)}</td>
                <td className="numeric">{row.normalised_cost === null ? '–' : row.normalised_cost.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}
