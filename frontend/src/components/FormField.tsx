import { type ReactNode, useId } from 'react';

import type { LengthHint } from '@/lib/format/length';

export interface FieldAria {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * A labelled control with its limit (`hint`, said before submit) and its problems (the browser's
 * check or the server's refusal, in words) underneath, tied to it for screen readers. A text's
 * length limit (`limit`, lib/format/length) is its hint until the text is too long, then its
 * problem (when nothing else is).
 */
export function FormField({
  label,
  hint,
  limit,
  problems,
  className,
  children,
}: {
  label: ReactNode;
  hint?: string;
  limit?: LengthHint;
  problems?: readonly string[];
  className?: string;
  children: (aria: FieldAria) => ReactNode;
}) {
  const shownHint = hint ?? (limit && !limit.over ? limit.text : undefined);
  const shownProblems = problems ?? (limit?.over ? [limit.text] : undefined);
  const id = useId();
  const invalid = shownProblems !== undefined && shownProblems.length > 0;
  const described = [shownHint ? `${id}-hint` : '', invalid ? `${id}-problem` : ''].filter(Boolean).join(' ');
  // The hint and the problem sit outside the label: the field's name stays its label alone.
  return (
    <div className={['form-field', className].filter(Boolean).join(' ')}>
      <label>
        {label}
        {children({ 'aria-invalid': invalid ? true : undefined, 'aria-describedby': described || undefined })}
      </label>
      {shownHint ? (
        <span id={`${id}-hint`} className="field-hint">
          {shownHint}
        </span>
      ) : null}
      {invalid ? (
        <span id={`${id}-problem`} className="field-error" role="alert">
          {shownProblems.join(' ')}
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
