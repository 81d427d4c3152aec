import { describe, expect, it } from 'vitest';

import type { TopologySwitch } from '../api/types';
import { buildClos, shuffled } from './testFabric';
import { compareSwitches, computeTierLayout, DEFAULT_MARGIN, groupOf } from './tierLayout';

const WIDTH = 1000;

function layoutOf(switches: TopologySwitch[], tiers = ['tor', 'fabric', 'spine']) {
  return computeTierLayout(tiers, switches, { width: WIDTH });
}

function xOf(layout: ReturnType<typeof layoutOf>, name: string): number {
  const placed = [...layout.positions.values()].find((sw) => sw.name === name);
  if (!placed) throw new Error(`switch ${name} not placed`);
  return placed.x;
}

describe('computeTierLayout', () => {
  const clos = buildClos({ pods: 3, torsPerPod: 4, fabricsPerPod: 2, spinesPerPlane: 3 });

  it('draws tiers as rows with the top tier at the top', () => {
    const layout = layoutOf(clos.switches);
    expect(layout.rows.map((row) => row.name)).toEqual(['spine', 'fabric', 'tor']);
    const [spineRow, fabricRow, torRow] = layout.rows;
    expect(spineRow!.y).toBeLessThan(fabricRow!.y);
    expect(fabricRow!.y).toBeLessThan(torRow!.y);
    for (const sw of layout.positions.values()) {
      const row = layout.rows.find((candidate) => candidate.tier === sw.tier)!;
      expect(sw.y).toBe(row.y);
    }
  });

  it('places every switch once, inside the drawing area', () => {
    const layout = layoutOf(clos.switches);
    expect(layout.positions.size).toBe(clos.switches.length);
    for (const sw of layout.positions.values()) {
      expect(sw.x).toBeGreaterThanOrEqual(DEFAULT_MARGIN.left);
      expect(sw.x).toBeLessThanOrEqual(WIDTH - DEFAULT_MARGIN.right);
      expect(sw.y).toBeGreaterThanOrEqual(0);
      expect(sw.y).toBeLessThanOrEqual(layout.height);
    }
  });

  it('groups ToRs and fabric switches by pod, in pod order', () => {
    const layout = layoutOf(clos.switches);
    const torRow = layout.rows.find((row) => row.name === 'tor')!;
    expect(torRow.groups.map((group) => group.label)).toEqual(['pod 0', 'pod 1', 'pod 2']);
    // Every pod 0 ToR is left of every pod 1 ToR, and so on.
    const maxX = (pod: number) => Math.max(...[0, 1, 2, 3].map((t) => xOf(layout, `p${pod}-tor${t}`)));
    const minX = (pod: number) => Math.min(...[0, 1, 2, 3].map((t) => xOf(layout, `p${pod}-tor${t}`)));
    expect(maxX(0)).toBeLessThan(minX(1));
    expect(maxX(1)).toBeLessThan(minX(2));
  });

  it('aligns a pod’s fabric switches over the same pod’s ToRs', () => {
    const layout = layoutOf(clos.switches);
    const torRow = layout.rows.find((row) => row.name === 'tor')!;
    const fabricRow = layout.rows.find((row) => row.name === 'fabric')!;
    for (const pod of [0, 1, 2]) {
      const torGroup = torRow.groups.find((group) => group.value === pod)!;
      const fabricGroup = fabricRow.groups.find((group) => group.value === pod)!;
      expect(fabricGroup.x0).toBeCloseTo(torGroup.x0);
      expect(fabricGroup.x1).toBeCloseTo(torGroup.x1);
      for (const f of [0, 1]) {
        const x = xOf(layout, `p${pod}-fab${f}`);
        expect(x).toBeGreaterThan(torGroup.x0);
        expect(x).toBeLessThan(torGroup.x1);
      }
    }
  });

  it('groups spines by plane', () => {
    const layout = layoutOf(clos.switches);
    const spineRow = layout.rows.find((row) => row.name === 'spine')!;
    expect(spineRow.groups.map((group) => [group.label, group.switchCount])).toEqual([
      ['plane 0', 3],
      ['plane 1', 3],
    ]);
    expect(xOf(layout, 'spine0-2')).toBeLessThan(xOf(layout, 'spine1-0'));
  });

  it('orders names numerically inside a group', () => {
    const switches: TopologySwitch[] = [
      { id: 1, name: 'p0-tor10', tier: 0, pod: 0, plane: null },
      { id: 2, name: 'p0-tor2', tier: 0, pod: 0, plane: null },
      { id: 3, name: 'p0-tor1', tier: 0, pod: 0, plane: null },
    ];
    const layout = layoutOf(switches, ['tor']);
    expect(xOf(layout, 'p0-tor1')).toBeLessThan(xOf(layout, 'p0-tor2'));
    expect(xOf(layout, 'p0-tor2')).toBeLessThan(xOf(layout, 'p0-tor10'));
  });

  it('is deterministic: input order does not change any position', () => {
    const reference = layoutOf(clos.switches);
    for (const seed of [1, 2, 3]) {
      const again = layoutOf(shuffled(clos.switches, seed));
      for (const [id, placed] of reference.positions) {
        expect(again.positions.get(id)).toEqual(placed);
      }
      expect(again.rows).toEqual(reference.rows);
    }
  });

  it('handles switches without pod or plane and an empty fabric', () => {
    const switches: TopologySwitch[] = [
      { id: 1, name: 'leaf-b', tier: 0, pod: null, plane: null },
      { id: 2, name: 'leaf-a', tier: 0, pod: null, plane: null },
      { id: 3, name: 'spine-a', tier: 1, pod: null, plane: null },
    ];
    const layout = layoutOf(switches, ['leaf', 'spine']);
    expect(layout.rows.map((row) => row.groups.map((group) => group.label))).toEqual([['ungrouped'], ['ungrouped']]);
    expect(xOf(layout, 'leaf-a')).toBeLessThan(xOf(layout, 'leaf-b'));

    const empty = computeTierLayout(['tor', 'spine'], [], { width: WIDTH });
    expect(empty.rows).toHaveLength(2);
    expect(empty.positions.size).toBe(0);
  });

  it('shrinks nodes when a row is crowded', () => {
    const small = layoutOf(clos.switches);
    const big = buildClos({ pods: 16, torsPerPod: 48, fabricsPerPod: 4, spinesPerPlane: 48 });
    const crowded = layoutOf(big.switches);
    const torRadius = (layout: ReturnType<typeof layoutOf>) =>
      layout.rows.find((row) => row.name === 'tor')!.nodeRadius;
    expect(torRadius(crowded)).toBeLessThan(torRadius(small));
    expect(torRadius(crowded)).toBeGreaterThan(0);
  });
});

describe('grouping helpers', () => {
  it('prefers pod, then plane', () => {
    expect(groupOf({ pod: 2, plane: 1 }).key).toBe('pod:2');
    expect(groupOf({ pod: null, plane: 1 }).key).toBe('plane:1');
    expect(groupOf({ pod: null, plane: null }).key).toBe('none');
  });

  it('sorts fabric switches by plane before name', () => {
    const a: TopologySwitch = { id: 1, name: 'z', tier: 1, pod: 0, plane: 0 };
    const b: TopologySwitch = { id: 2, name: 'a', tier: 1, pod: 0, plane: 1 };
    expect(compareSwitches(a, b)).toBeLessThan(0);
  });
});
