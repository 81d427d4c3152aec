/**
 * The problems a form finds in the browser before sending, each kept with the field it belongs to
 * so the form can say it at that field; every problem at once, not one per submit.
 */
export interface FormCheck<Field extends string> {
  /** Every problem, in the form's order (field problems too). */
  errors: string[];
  /** The problem of each field, said at it. */
  byField: Partial<Record<Field, string>>;
}

export function formCheck<Field extends string>(): FormCheck<Field> & {
  add: (message: string, field?: Field) => void;
} {
  const check: FormCheck<Field> = { errors: [], byField: {} };
  return {
    ...check,
    add(message, field) {
      check.errors.push(message);
      // A field's first problem is the one it shows; the box lists the rest.
      if (field && check.byField[field] === undefined) check.byField[field] = message;
    },
  };
}

/** The problems no field shows: the "Check the form." box lists only these. */
export function generalProblems<Field extends string>(check: FormCheck<Field>): string[] {
  const atFields = new Set(Object.values(check.byField));
  return check.errors.filter((error) => !atFields.has(error));
}

/** A field's problems: the browser's check first; the server's refusal when the browser found none. */
export function problemsOf(checked: string | undefined, server: readonly string[] | undefined): string[] | undefined {
  if (checked) return [checked];
  return server && server.length > 0 ? [...server] : undefined;
}
