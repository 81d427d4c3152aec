/**
 * Link health derived from telemetry (docs/telemetry.md): the worse of a link's two
 * directions. Shared by the links table, the link page and the fabric drawing so a
 * colour means the same thing everywhere.
 */
export type LinkHealth = 'unknown' | 'clean' | 'lossy' | 'corrupting';

/** Least to most severe: the drawing paints in this order so the worst links end up on top. */
export const LINK_HEALTHS: readonly LinkHealth[] = ['unknown', 'clean', 'lossy', 'corrupting'];

export const LINK_HEALTH_STYLE: Record<LinkHealth, { label: string; colour: string; meaning: string }> = {
  unknown: { label: 'Unknown', colour: '#8a8f98', meaning: 'no loss rate measured yet' },
  clean: { label: 'Clean', colour: '#3f8f5a', meaning: 'corruption below the report threshold' },
  lossy: { label: 'Lossy', colour: '#d9822b', meaning: 'corruption at or above the report threshold' },
  corrupting: { label: 'Corrupting', colour: '#c62828', meaning: 'corruption at or above the action threshold' },
};

export function isLinkHealth(value: unknown): value is LinkHealth {
  return typeof value === 'string' && (LINK_HEALTHS as readonly string[]).includes(value);
}
