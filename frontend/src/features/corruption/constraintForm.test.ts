import { describe, expect, it } from 'vitest';

import type { CapacityConstraints } from './api/types';
import { constraintsPatch, describeChange, draftFromConstraints, isEmptyPatch } from './constraintForm';

const SERVER: CapacityConstraints = {
  fabric: 1,
  default: 0.75,
  overrides: { 'p0-tor10': 0.5, 'p0-tor2': 0.9 },
  tors: 32,
};

describe('constraint editor', () => {
  it('starts from the server’s values, ToRs in natural order, and sends nothing when nothing changed', () => {
    const draft = draftFromConstraints(SERVER);
    expect(draft).toEqual({
      default: '0.75',
      overrides: [
        { tor: 'p0-tor2', value: '0.9' },
        { tor: 'p0-tor10', value: '0.5' },
      ],
    });
    expect(isEmptyPatch(constraintsPatch(SERVER, draft))).toBe(true);
  });

  it('sends the changed default, edited and added overrides, and null for removed ones', () => {
    const patch = constraintsPatch(SERVER, {
      default: ' 0.8 ',
      overrides: [
        { tor: 'p0-tor2', value: '0.95' },
        { tor: 'p1-tor0', value: '0.6' },
      ],
    });
    expect(patch).toEqual({ default: 0.8, overrides: { 'p0-tor2': 0.95, 'p1-tor0': 0.6, 'p0-tor10': null } });
  });

  it('treats an emptied override as cleared', () => {
    const patch = constraintsPatch(SERVER, {
      default: '0.75',
      overrides: [
        { tor: 'p0-tor2', value: '' },
        { tor: 'p0-tor10', value: '0.5' },
      ],
    });
    expect(patch).toEqual({ overrides: { 'p0-tor2': null } });
  });

  it('passes text that is no number to the server, which names the problem', () => {
    const patch = constraintsPatch(SERVER, { default: 'lots', overrides: [{ tor: 'p0-tor2', value: '1.5' }] });
    expect(patch).toEqual({ default: 'lots', overrides: { 'p0-tor2': 1.5, 'p0-tor10': null } });
  });

  it('describes the answer’s changes', () => {
    expect(describeChange({ switch: null, before: 0.75, after: 0.7 })).toBe('fabric default: 0.75 → 0.7');
    expect(describeChange({ switch: 'p0-tor2', before: 0.9, after: null })).toBe('p0-tor2: 0.9 → none');
  });
});
