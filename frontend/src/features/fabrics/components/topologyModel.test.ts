import { describe, expect, it } from 'vitest';

import { buildClos } from './testFabric';
import { computeTierLayout } from './tierLayout';
import { describeSwitch, linkSegments, linksBySwitch, topologySummary } from './topologyModel';

describe('topology model', () => {
  const clos = buildClos({ pods: 2, torsPerPod: 2, fabricsPerPod: 2, spinesPerPlane: 1 });
  clos.links[0] = { ...clos.links[0]!, oper_state: 'down' };
  clos.links[1] = { ...clos.links[1]!, admin_state: 'disabled', oper_state: 'down' };
  const layout = computeTierLayout(clos.tiers, clos.switches, { width: 800 });

  it('turns links into segments between placed switches, by state', () => {
    const segments = linkSegments(layout, clos.links);
    expect(segments.down).toHaveLength(1);
    expect(segments.disabled).toHaveLength(1);
    expect(segments.up).toHaveLength(clos.links.length - 2);
    const first = clos.links[0]!;
    expect(segments.down[0]).toMatchObject({
      x1: layout.positions.get(first.a)!.x,
      y1: layout.positions.get(first.a)!.y,
      x2: layout.positions.get(first.z)!.x,
      y2: layout.positions.get(first.z)!.y,
    });
  });

  it('drops links whose switches are unknown', () => {
    const segments = linkSegments(layout, [{ id: 99, a: 1, z: 12345, admin_state: 'enabled', oper_state: 'up' }]);
    expect(segments.up).toHaveLength(0);
  });

  it('summarises the drawing for screen readers', () => {
    expect(topologySummary('demo-fb', clos)).toBe(
      'Topology of demo-fb: 3 tiers (tor, fabric, spine), 10 switches, 12 links: ' +
        '10 enabled and up, 1 admin-disabled, 1 enabled but down.',
    );
  });

  it('describes a switch and its links', () => {
    const adjacency = linksBySwitch(clos.links);
    const tor = [...layout.positions.values()].find((sw) => sw.name === 'p0-tor0')!;
    expect(describeSwitch(tor, 'tor', adjacency.get(tor.id) ?? [])).toBe(
      'p0-tor0 (tor, pod 0): 2 links, 0 up, 1 disabled, 1 down',
    );
  });
});
