import type { GuardTor } from '@/features/links/api/types';
import type { LinkHealth } from '@/lib/linkHealth';

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

export interface TopologySwitch {
  id: number;
  name: string;
  tier: number;
  pod: number | null;
  plane: number | null;
}

export type AdminState = 'enabled' | 'disabled';
export type OperState = 'up' | 'down';

export interface TopologyLink {
  id: number;
  /** Switch ids; `a` is the lower tier. */
  a: number;
  z: number;
  admin_state: AdminState;
  oper_state: OperState;
  /** From telemetry; the line's colour in the drawing. */
  health: LinkHealth;
}

export interface FabricTopology {
  fabric: number;
  tiers: string[];
  switches: TopologySwitch[];
  links: TopologyLink[];
}

export interface TorCapacity {
  switch: number;
  name: string;
  pod: number | null;
  available_paths: number;
  total_paths: number;
  /** Fraction of ToR-to-top paths available, 0..1. */
  fraction: number;
  constraint: number;
  below_constraint: boolean;
}

export interface FabricCapacity {
  fabric: number;
  capacity_constraint: number;
  summary: { tors: number; below_constraint: number; min_fraction: number | null };
  tors: TorCapacity[];
}

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
