/** Number formats shared by the reconfig pages. */

/** Probabilities span many decades: 3 significant digits, exponent form below 0.001. */
export function formatProbability(value: number): string {
  if (value === 0) return '0';
  if (value < 1e-3) return value.toExponential(2);
  return value.toPrecision(3);
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction < 0.1 && fraction > 0 ? 1 : 0)}%`;
}

export function formatCost(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** "12,000", "3.68", "0.0012": a few significant digits with separators, never an exponent. */
export function formatSignificant(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { maximumSignificantDigits: digits });
}
