import { describe, expect, it } from 'vitest';

import { LINK_LOOKS } from './linkState';
import { buildClos } from './testFabric';
import { computeTierLayout } from './tierLayout';
import { describeSwitch, linkSegments, linksBySwitch, topologySummary } from './topologyModel';

describe('topology model', () => {
  const clos = buildClos({ pods: 2, torsPerPod: 2, fabricsPerPod: 2, spinesPerPlane: 1 });
  clos.links[0] = { ...clos.links[0]!, oper_state: 'down' };
  clos.links[1] = { ...clos.links[1]!, admin_state: 'disabled', oper_state: 'down' };
  clos.links[2] = { ...clos.links[2]!, health: 'corrupting' };
  clos.links[3] = { ...clos.links[3]!, health: 'clean' };
  const layout = computeTierLayout(clos.tiers, clos.switches, { width: 800 });

  const bucketOf = (health: string, state: string) =>
    LINK_LOOKS.findIndex((look) => look.health === health && look.state === state);

  it('turns links into segments between placed switches, bucketed by health and state', () => {
    const segments = linkSegments(layout, clos.links);
    expect(segments).toHaveLength(LINK_LOOKS.length);
    expect(segments[bucketOf('unknown', 'down')]).toHaveLength(1);
    expect(segments[bucketOf('unknown', 'disabled')]).toHaveLength(1);
    expect(segments[bucketOf('corrupting', 'up')]!.map((segment) => segment.id)).toEqual([clos.links[2]!.id]);
    expect(segments[bucketOf('clean', 'up')]).toHaveLength(1);
    expect(segments[bucketOf('unknown', 'up')]).toHaveLength(clos.links.length - 4);
    expect(segments.flat()).toHaveLength(clos.links.length);
    const first = clos.links[0]!;
    expect(segments[bucketOf('unknown', 'down')]![0]).toMatchObject({
      x1: layout.positions.get(first.a)!.x,
      y1: layout.positions.get(first.a)!.y,
      x2: layout.positions.get(first.z)!.x,
      y2: layout.positions.get(first.z)!.y,
    });
  });

  it('drops links whose switches are unknown', () => {
    const segments = linkSegments(layout, [
      { id: 99, a: 1, z: 12345, admin_state: 'enabled', oper_state: 'up', health: 'clean' },
    ]);
    expect(segments.flat()).toHaveLength(0);
  });

  it('summarises the drawing for screen readers', () => {
    expect(topologySummary('demo-fb', clos)).toBe(
      'Topology of demo-fb: 3 tiers (tor, fabric, spine), 10 switches, 12 links: ' +
        '10 enabled and up, 1 admin-disabled, 1 enabled but down. Health: 1 corrupting, 1 clean, 10 unknown.',
    );
  });

  it('describes a switch and its links', () => {
    const adjacency = linksBySwitch(clos.links);
    const tor = [...layout.positions.values()].find((sw) => sw.name === 'p0-tor0')!;
    expect(describeSwitch(tor, 'tor', adjacency.get(tor.id) ?? [])).toBe(
      'p0-tor0 (tor, pod 0): 2 links, 0 in service, 1 disabled, 1 down; 2 unknown',
    );
  });
});
