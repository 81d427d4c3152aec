/**
 * A text field's length limit, said before submit instead of cutting a paste silently (an input's
 * maxLength drops the rest without a word): the limit, a count when near it, the excess past it.
 */

/** From this share of the limit the hint counts the characters. */
const COUNT_FROM = 0.8;

export interface LengthHint {
  text: string;
  /** Past the limit: the field is invalid and says by how much. */
  over: boolean;
}

export function lengthHint(length: number, max: number): LengthHint {
  if (length > max) {
    const excess = length - max;
    return { text: `${length} characters: up to ${max}, ${excess} too many.`, over: true };
  }
  if (length >= max * COUNT_FROM) return { text: `Up to ${max} characters (${length} now).`, over: false };
  return { text: `Up to ${max} characters.`, over: false };
}
