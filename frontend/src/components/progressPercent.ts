/** A 0..1 fraction as a whole percentage, clamped (progress values can overshoot slightly). */
export function progressPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.round(Math.min(1, Math.max(0, value)) * 100);
}
