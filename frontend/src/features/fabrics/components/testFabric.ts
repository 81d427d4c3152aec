/** Builds small Clos topologies for tests: pods of ToRs and fabric switches, spines by plane. */
import type { FabricTopology, TopologyLink, TopologySwitch } from '../api/types';

export interface ClosShape {
  pods: number;
  torsPerPod: number;
  /** Fabric switches per pod; fabric switch k belongs to spine plane k. */
  fabricsPerPod: number;
  spinesPerPlane: number;
}

export function buildClos(shape: ClosShape): FabricTopology {
  const switches: TopologySwitch[] = [];
  const links: TopologyLink[] = [];
  let nextId = 1;
  const add = (name: string, tier: number, pod: number | null, plane: number | null) => {
    const sw = { id: nextId++, name, tier, pod, plane };
    switches.push(sw);
    return sw;
  };
  const spines: TopologySwitch[][] = [];
  for (let plane = 0; plane < shape.fabricsPerPod; plane++) {
    spines.push(Array.from({ length: shape.spinesPerPlane }, (_, s) => add(`spine${plane}-${s}`, 2, null, plane)));
  }
  let linkId = 1;
  for (let pod = 0; pod < shape.pods; pod++) {
    const fabrics = Array.from({ length: shape.fabricsPerPod }, (_, f) => add(`p${pod}-fab${f}`, 1, pod, f));
    const tors = Array.from({ length: shape.torsPerPod }, (_, t) => add(`p${pod}-tor${t}`, 0, pod, null));
    for (const tor of tors) {
      for (const fab of fabrics) {
        links.push({ id: linkId++, a: tor.id, z: fab.id, admin_state: 'enabled', oper_state: 'up', health: 'unknown' });
      }
    }
    fabrics.forEach((fab, plane) => {
      for (const spine of spines[plane] ?? []) {
        links.push({
          id: linkId++,
          a: fab.id,
          z: spine.id,
          admin_state: 'enabled',
          oper_state: 'up',
          health: 'unknown',
        });
      }
    });
  }
  return { fabric: 1, tiers: ['tor', 'fabric', 'spine'], switches, links, corrupting_in_service: 0 };
}

/** Deterministic shuffle (mulberry32) so "order does not matter" tests are repeatable. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
