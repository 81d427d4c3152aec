import type { GuardTor } from '@/features/links';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export interface Fabric {
  id: number;
  url: string;
  name: string;
  description: string;
  /** Tier names bottom-up: index 0 is the ToR tier. */
  tiers: string[];
  capacity_constraint: number;
  switch_count: number;
  link_count: number;
  created: string;
  updated: string;
}

export interface FabricBrief {
  id: number;
  url: string;
  name: string;
}

export type TopologySwitch = Schemas['TopologySwitch'];

export type AdminState = 'enabled' | 'disabled';
export type OperState = 'up' | 'down';

export type TopologyLink = Schemas['TopologyLink'];

/** GET /api/fabrics/{id}/topology/ */
export type FabricTopology = Schemas['FabricTopology'];

/** A ToR's capacity as the charts read it (the answer also says required_paths and headroom_paths). */
export type TorCapacity = Omit<Schemas['TorCapacity'], 'required_paths' | 'headroom_paths'>;

/** GET /api/fabrics/{id}/capacity/ */
export type FabricCapacity = Omit<Schemas['FabricCapacity'], 'tors'> & { tors: TorCapacity[] };

/** GET /api/switches/{id}/ */
export interface FabricSwitch {
  id: number;
  url: string;
  fabric: number;
  name: string;
  tier: number;
  pod: number | null;
  plane: number | null;
  rack: string | null;
  vendor: string;
  model: string;
  /** The switch's own constraint (ToRs), null when it follows the fabric's default. */
  capacity_constraint: number | null;
  effective_capacity_constraint: number | null;
  /** Some link of the switch is disabled for maintenance (a drain). */
  drained: boolean;
}

/** POST /api/switches/{id}/drain/ (and undrain/) body: optional, says why. */
export interface DrainRequest {
  admin_reason?: string;
  /** Admins only, with a non-empty admin_reason. */
  override_capacity?: true;
}

/** 200 answer of an applied drain or undrain (docs/capacity-guard.md). */
export interface DrainAnswer {
  switch: number;
  /** Ids of the links whose admin state changed. */
  links: number[];
  affected_tors: GuardTor[];
}
