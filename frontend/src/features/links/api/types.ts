import type { components } from '@/lib/api/schema';
import type { LinkHealth } from '@/lib/linkHealth';

/** What a link shares with others: breakout group, cable, line cards (server-declared). */
export type LinkComponents = components['schemas']['LinkComponents'];

export interface FabricLink {
  id: number;
  url: string;
  fabric: number;
  a_switch: number;
  a_switch_name: string;
  a_port: string;
  z_switch: number;
  z_switch_name: string;
  z_port: string;
  length_m: number | null;
  fiber: string | null;
  speed_gbps: number | null;
  admin_state: 'enabled' | 'disabled';
  admin_reason: string;
  admin_changed_by: string | null;
  admin_changed_at: string | null;
  /** Measured from telemetry (`oper_status`); read-only in the API. */
  oper_state: 'up' | 'down';
  /** When the measured state last changed (null: never since the link was created). */
  oper_changed_at: string | null;
  /** The link changed state too often in the recent window (docs/capacity-guard.md). */
  flapping: boolean;
  health: LinkHealth;
  /** Some side's Rx is below its lower limit or dark. */
  rx_low: boolean;
  /** Named by the link; blank: by the port rule (settings PHYSICAL_COMPONENTS). Absent in ?brief=1. */
  breakout?: string;
  cable_id?: string;
  a_line_card?: string;
  z_line_card?: string;
  components?: LinkComponents;
}

export interface LinkFilters {
  fabric?: number;
  admin_state?: 'enabled' | 'disabled';
  oper_state?: 'up' | 'down';
  /** Either end of the link. */
  switch?: number;
  /** Any of these (the API ORs a repeated parameter). */
  health?: LinkHealth[];
  /** Only links with a low or dark receiver. */
  rx_low?: true;
  /** Only links marked flapping. */
  flapping?: true;
}

/* The capacity guard (docs/capacity-guard.md): every change that takes links out of service. */

/** A ToR whose up-paths a change moves, against its capacity constraint. */
export interface GuardTor {
  switch: number;
  name: string;
  paths_before: number;
  paths_after: number;
  /** ceil(constraint × design_paths): the fewest up-paths the ToR may keep. */
  required_paths: number;
  design_paths: number;
  /** The ToR's effective constraint, a fraction 0..1. */
  constraint: number;
}

/** 200 answer of any guarded request sent with `?dry_run=1`: nothing changed. */
export interface GuardPreview {
  verdict: 'safe' | 'unsafe';
  /** One sentence. */
  detail: string;
  /** Ids of the links whose state would change. */
  links: number[];
  affected_tors: GuardTor[];
  /** The ToRs that would fall under their constraint, worst first. */
  blocking_tors: GuardTor[];
}

/** 409 body of a refused change. */
export interface GuardRefusal {
  detail: string;
  blocking_tors: GuardTor[];
  links: number[];
}

/** PATCH /api/links/{id}/ body of an admin-state change. */
export interface LinkAdminStateChange {
  admin_state: 'enabled' | 'disabled';
  admin_reason: string;
  /** Admins only, with a non-empty admin_reason. */
  override_capacity?: true;
}
