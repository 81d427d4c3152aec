import { type ReactNode, useId } from 'react';

export interface FieldAria {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * A labelled control with its limit (`hint`, said before submit) and its problems (the browser's
 * check or the server's refusal, in words) underneath, tied to it for screen readers.
 */
export function FormField({
  label,
  hint,
  problems,
  className,
  children,
}: {
  label: ReactNode;
  hint?: string;
  problems?: readonly string[];
  className?: string;
  children: (aria: FieldAria) => ReactNode;
}) {
  const id = useId();
  const invalid = problems !== undefined && problems.length > 0;
  const described = [hint ? `${id}-hint` : '', invalid ? `${id}-problem` : ''].filter(Boolean).join(' ');
  // The hint and the problem sit outside the label: the field's name stays its label alone.
  return (
    <div className={['form-field', className].filter(Boolean).join(' ')}>
      <label>
        {label}
        {children({ 'aria-invalid': invalid ? true : undefined, 'aria-describedby': described || undefined })}
      </label>
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {invalid ? (
        <span id={`${id}-problem`} className="field-error" role="alert">
          {problems.join(' ')}
        </span>
      ) : null}
    </div>
  );
}

/** The server's problems that belong to no field of the form, under a sentence saying what was refused. */
export function RefusedProblems({ title, problems }: { title: string; problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="error-box" role="alert">
      <p className="error-title">{title}</p>
      <ul>
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
