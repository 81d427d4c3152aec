import { describe, expect, it } from 'vitest';

import type { TopologyLink } from '../api/types';
import { chooseRenderer, countLinkStates, linkState, linksByState } from './linkState';

const link = (id: number, admin_state: TopologyLink['admin_state'], oper_state: TopologyLink['oper_state']) => ({
  id,
  a: 1,
  z: 2,
  admin_state,
  oper_state,
});

describe('linkState', () => {
  it('classifies enabled+up, admin-disabled and enabled+down', () => {
    expect(linkState(link(1, 'enabled', 'up'))).toBe('up');
    expect(linkState(link(2, 'enabled', 'down'))).toBe('down');
    // A disabled link is expected to be down: it is shown as disabled, not as a fault.
    expect(linkState(link(3, 'disabled', 'down'))).toBe('disabled');
    expect(linkState(link(4, 'disabled', 'up'))).toBe('disabled');
  });

  it('counts and buckets links by state', () => {
    const links = [
      link(1, 'enabled', 'up'),
      link(2, 'enabled', 'down'),
      link(3, 'disabled', 'down'),
      link(4, 'enabled', 'up'),
    ];
    expect(countLinkStates(links)).toEqual({ up: 2, disabled: 1, down: 1 });
    expect(linksByState(links).up.map((l) => l.id)).toEqual([1, 4]);
  });
});

describe('chooseRenderer', () => {
  it('uses SVG for small fabrics and canvas for large ones', () => {
    expect(chooseRenderer(96)).toBe('svg');
    expect(chooseRenderer(3000)).toBe('svg');
    expect(chooseRenderer(3001)).toBe('canvas');
    expect(chooseRenderer(100_000)).toBe('canvas');
  });
});
