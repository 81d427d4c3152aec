/**
 * Numbers that used to reach the screen in exponent notation ("5.4e-4"), written as people read
 * them: loss rates and penalties as "5.4 × 10⁻⁴", lengths as "390 m".
 */

const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

/** Below this a rate reads as "m × 10ⁿ"; from it up as a plain decimal ("0.012"). */
const PLAIN_FROM = 0.01;

/**
 * A loss rate (a fraction of packets, 1e-6 = one in a million) or a penalty (a sum of them):
 * "5.4 × 10⁻⁴" with two significant digits, "0.012" from 1 % up, "0" for none, "—" when unknown.
 */
export function formatLossRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '—';
  if (rate === 0) return '0';
  if (Math.abs(rate) >= PLAIN_FROM) return String(Number(rate.toPrecision(2)));
  // toExponential rounds the mantissa first (9.96e-5 -> "1.0e-4"), so the exponent matches it.
  const [mantissa, exponent] = rate.toExponential(1).split('e');
  return `${mantissa} × 10${superscript(String(Number(exponent)))}`;
}

/** An exponent's digits and sign as superscripts: "-4" -> "⁻⁴". */
export function superscript(text: string): string {
  return [...text].map((character) => SUPERSCRIPT[character] ?? character).join('');
}

/** "390 m", "7.8 m": at most one decimal, none when whole; "—" when the length is unknown. */
export function formatMeters(meters: number | null | undefined): string {
  if (meters === null || meters === undefined || !Number.isFinite(meters)) return '—';
  return `${Number(meters.toFixed(1)).toLocaleString('en-US')} m`;
}
