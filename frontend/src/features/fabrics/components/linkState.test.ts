import { describe, expect, it } from 'vitest';

import type { TopologyLink } from '../api/types';
import {
  chooseRenderer,
  countLinkHealth,
  countLinkStates,
  dashArray,
  isQuietLook,
  LINK_LOOKS,
  linkHealth,
  linkState,
  lookIndex,
  lookWidth,
} from './linkState';

const link = (
  id: number,
  admin_state: TopologyLink['admin_state'],
  oper_state: TopologyLink['oper_state'],
  health: TopologyLink['health'] = 'clean',
): TopologyLink => ({ id, a: 1, z: 2, admin_state, oper_state, health });

describe('linkState', () => {
  it('classifies enabled+up, admin-disabled and enabled+down', () => {
    expect(linkState(link(1, 'enabled', 'up'))).toBe('up');
    expect(linkState(link(2, 'enabled', 'down'))).toBe('down');
    // A disabled link is expected to be down: it is shown as disabled, not as a fault.
    expect(linkState(link(3, 'disabled', 'down'))).toBe('disabled');
    expect(linkState(link(4, 'disabled', 'up'))).toBe('disabled');
  });

  it('counts links by state and by health', () => {
    const links = [
      link(1, 'enabled', 'up', 'corrupting'),
      link(2, 'enabled', 'down'),
      link(3, 'disabled', 'down', 'unknown'),
      link(4, 'enabled', 'up', 'corrupting'),
    ];
    expect(countLinkStates(links)).toEqual({ up: 2, disabled: 1, down: 1 });
    expect(countLinkHealth(links)).toEqual({ unknown: 1, clean: 1, lossy: 0, corrupting: 2 });
  });

  it('reads a missing or unknown health word as unknown', () => {
    expect(linkHealth({ health: undefined as unknown as TopologyLink['health'] })).toBe('unknown');
    expect(linkHealth({ health: 'sideways' as TopologyLink['health'] })).toBe('unknown');
  });
});

describe('link looks', () => {
  it('gives each (health, state) pair one look, corrupting ones drawn last', () => {
    expect(LINK_LOOKS).toHaveLength(12);
    const index = lookIndex(link(1, 'disabled', 'down', 'lossy'));
    expect(LINK_LOOKS[index]).toEqual({ health: 'lossy', state: 'disabled' });
    // Every combination lands on its own look, and an unknown word on an "unknown" look.
    for (const health of ['unknown', 'clean', 'lossy', 'corrupting'] as const) {
      for (const [admin, oper, state] of [
        ['enabled', 'up', 'up'],
        ['disabled', 'down', 'disabled'],
        ['enabled', 'down', 'down'],
      ] as const) {
        expect(LINK_LOOKS[lookIndex(link(1, admin, oper, health))]).toEqual({ health, state });
      }
    }
    expect(LINK_LOOKS[lookIndex(link(1, 'enabled', 'up', 'constructor' as TopologyLink['health']))]).toEqual({
      health: 'unknown',
      state: 'up',
    });
    expect(countLinkHealth([link(1, 'enabled', 'up', 'toString' as TopologyLink['health'])]).unknown).toBe(1);
    expect(lookIndex(link(2, 'enabled', 'up', 'corrupting'))).toBeGreaterThan(
      lookIndex(link(3, 'enabled', 'down', 'clean')),
    );
  });

  it('keeps the state readable as the line pattern: solid, dashed, dotted', () => {
    expect(dashArray('up')).toBeUndefined();
    expect(dashArray('disabled')).toBe('5 4');
    expect(dashArray('down')).toBe('2 3');
  });

  it('draws down links thicker than any other link, in both renderers', () => {
    for (const renderer of ['svg', 'canvas'] as const) {
      const down = lookWidth({ health: 'unknown', state: 'down' }, renderer);
      for (const look of LINK_LOOKS.filter((candidate) => candidate.state !== 'down')) {
        expect(down).toBeGreaterThan(lookWidth(look, renderer));
      }
    }
  });

  it('lets only enabled, up, unremarkable links fade', () => {
    expect(isQuietLook({ health: 'clean', state: 'up' })).toBe(true);
    expect(isQuietLook({ health: 'unknown', state: 'up' })).toBe(true);
    expect(isQuietLook({ health: 'lossy', state: 'up' })).toBe(false);
    expect(isQuietLook({ health: 'clean', state: 'down' })).toBe(false);
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
