/**
 * The constraint editor's draft and the PATCH it sends. Values go to the server as typed (a
 * number when the text is one, the text otherwise), so the API's 400, which lists every problem,
 * is the one place a value is judged; the form only leaves out what did not change.
 */
import type { CapacityConstraints, ConstraintsPatch } from './api/types';

export interface OverrideDraft {
  tor: string;
  value: string;
}

export interface ConstraintsDraft {
  default: string;
  overrides: OverrideDraft[];
}

export function draftFromConstraints(constraints: CapacityConstraints): ConstraintsDraft {
  return {
    default: String(constraints.default),
    overrides: Object.entries(constraints.overrides)
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([tor, value]) => ({ tor, value: String(value) })),
  };
}

/** "0.8" → 0.8; anything that is not a plain number stays text for the server to refuse. */
function typed(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

/**
 * What changed between the server's constraints and the draft: the default if edited, every
 * override added or edited, and null for each override removed (or emptied).
 */
export function constraintsPatch(server: CapacityConstraints, draft: ConstraintsDraft): ConstraintsPatch {
  const patch: { default?: number | string; overrides?: Record<string, number | string | null> } = {};
  const nextDefault = typed(draft.default);
  if (nextDefault !== server.default) patch.default = nextDefault;

  const overrides: Record<string, number | string | null> = {};
  const kept = new Set<string>();
  for (const row of draft.overrides) {
    const tor = row.tor.trim();
    if (!tor) continue;
    const value = row.value.trim() === '' ? null : typed(row.value);
    if (value === null) continue;
    kept.add(tor);
    if (server.overrides[tor] !== value) overrides[tor] = value;
  }
  for (const tor of Object.keys(server.overrides)) {
    if (!kept.has(tor)) overrides[tor] = null;
  }
  if (Object.keys(overrides).length > 0) patch.overrides = overrides;
  // Typed text is sent as is; the API names what is wrong with it.
  return patch as ConstraintsPatch;
}

export function isEmptyPatch(patch: ConstraintsPatch): boolean {
  return patch.default === undefined && patch.overrides === undefined;
}

/** "p0-tor1 0.5 → none" for the answer's change rows. */
export function describeChange(change: { switch: string | null; before: number | null; after: number | null }): string {
  const show = (value: number | null) => (value === null ? 'none' : String(value));
  return `${change.switch ?? 'fabric default'}: ${show(change.before)} → ${show(change.after)}`;
}
