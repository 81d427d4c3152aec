/**
 * Link answers and the capacity guard's (docs/capacity-guard.md), generated from the server's
 * OpenAPI document (fabric/api/serializers.py). UI-only: `LinkFilters` (the list's query).
 */
import type { components } from '@/lib/api/schema';
import type { LinkHealth } from '@/lib/linkHealth';

type Schemas = components['schemas'];

export type FabricLink = Schemas['Link'];

/** What a link shares with others: breakout group, cable, line cards (server-declared). */
export type LinkComponents = Schemas['LinkComponents'];

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
  /** Only links whose optics are forecast to cross a limit. */
  at_risk?: true;
  /** Only links enabled, up and corrupting now (the count Health and the topology show). */
  corrupting_in_service?: true;
}

/** A ToR whose up-paths a change moves, against its capacity constraint. */
export type GuardTor = Schemas['GuardTor'];

/** 200 answer of any guarded request sent with `?dry_run=1`: nothing changed. */
export type GuardPreview = Schemas['GuardPreview'];

/** 409 body of a refused change. */
export type GuardRefusal = Schemas['GuardRefusal'];

type LinkPatch = Schemas['PatchedLinkRequest'];

/**
 * PATCH /api/links/{id}/ body of an admin-state change; `override_capacity` for admins only, with a
 * non-empty admin_reason.
 */
export type LinkAdminStateChange = Required<Pick<LinkPatch, 'admin_state' | 'admin_reason'>> &
  Partial<Pick<LinkPatch, 'override_capacity'>>;
