import type { ReactNode } from 'react';

export interface Choice<T extends string> {
  value: T;
  label: ReactNode;
  /** Shown after the label, e.g. a "recommended" badge. */
  hint?: ReactNode;
}

interface ChoiceFieldsetProps<T extends string> {
  legend: ReactNode;
  /** The radio group's name: unique within the page. */
  name: string;
  options: readonly Choice<T>[];
  value: T | null | undefined;
  onChange: (value: T) => void;
  className?: string;
  /** Fields that belong to the chosen option, shown inside the fieldset below the choices. */
  children?: ReactNode;
}

/** One of a few choices as radio buttons under a legend: the forms' "where from" questions. */
export function ChoiceFieldset<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  className = 'filter-group',
  children,
}: ChoiceFieldsetProps<T>) {
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="check">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
          {option.hint}
        </label>
      ))}
      {children}
    </fieldset>
  );
}
