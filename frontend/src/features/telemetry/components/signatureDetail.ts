import type { DirectionSignature } from '../api/types';

/** "CV 0.12, r 0.08" of the series the verdict rests on, for the technician's eye. */
export function signatureDetail(signature: DirectionSignature): string {
  const lossy = [signature.corruption, signature.congestion].filter((s) => s.lossy_intervals > 0);
  const series = lossy.sort((x, y) => (y.mean_rate ?? 0) - (x.mean_rate ?? 0))[0];
  if (!series) return '';
  const parts = [];
  if (series.cv !== null) parts.push(`CV ${series.cv.toFixed(2)}`);
  if (series.load_correlation !== null) parts.push(`r ${series.load_correlation.toFixed(2)}`);
  return parts.join(', ');
}
