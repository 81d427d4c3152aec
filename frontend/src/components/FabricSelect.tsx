import type { ReactNode } from 'react';

/** What a fabric drop-down needs of a fabric: the brief list (`?brief=1`) gives it. */
export interface FabricChoice {
  id: number;
  name: string;
}

interface FabricSelectProps {
  fabrics: readonly FabricChoice[];
  /** The chosen fabric id; '' or undefined when none is chosen. */
  value: number | string | null | undefined;
  /** The chosen fabric id as the select gives it: '' for the empty option. */
  onChange: (value: string) => void;
  /** The label that names the control (e2e tests find it by this name). */
  label?: ReactNode;
  /** Text of the option for no fabric ("All fabrics", "Choose…"); none when left out. */
  emptyOption?: string;
  required?: boolean;
}

/** The one fabric drop-down: every page that picks or filters by a fabric uses it. */
export function FabricSelect({ fabrics, value, onChange, label = 'Fabric', emptyOption, required }: FabricSelectProps) {
  return (
    <label>
      {label}
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value)} required={required}>
        {emptyOption !== undefined ? <option value="">{emptyOption}</option> : null}
        {fabrics.map((fabric) => (
          <option key={fabric.id} value={fabric.id}>
            {fabric.name}
          </option>
        ))}
      </select>
    </label>
  );
}
