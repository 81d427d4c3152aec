/** Rough width of one character of the 11px chart labels. */
export const LABEL_CHAR_PX = 6.5;

/**
 * Label every k-th of a run of similar spans so labels do not overlap: 64 pods in
 * 1000px cannot all be named, but every fourth one can.
 */
export function labelStride(spanPx: number, longestLabelChars: number, paddingPx = 8): number {
  if (!(spanPx > 0)) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.ceil((longestLabelChars * LABEL_CHAR_PX + paddingPx) / spanPx));
}
