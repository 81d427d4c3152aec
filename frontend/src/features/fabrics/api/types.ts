/**
 * Fabric and switch answers, generated from the server's OpenAPI document (fabric/api/serializers.py).
 * UI views of answers: `FabricBrief` (the `?brief=1` rows, which OpenAPI does not describe apart),
 * `TorCapacity` and `FabricCapacity` (the capacity answer without the fields the charts leave out).
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type Fabric = Schemas['Fabric'];

/** A row of GET /api/fabrics/?brief=1. */
export type FabricBrief = Pick<Fabric, 'id' | 'url' | 'name'>;

export type TopologySwitch = Schemas['TopologySwitch'];

export type TopologyLink = Schemas['TopologyLink'];

/** GET /api/fabrics/{id}/topology/ */
export type FabricTopology = Schemas['FabricTopology'];

/** A ToR's capacity as the charts read it (the answer also says required_paths and headroom_paths). */
export type TorCapacity = Omit<Schemas['TorCapacity'], 'required_paths' | 'headroom_paths'>;

/** GET /api/fabrics/{id}/capacity/ */
export type FabricCapacity = Omit<Schemas['FabricCapacity'], 'tors'> & { tors: TorCapacity[] };

/** GET /api/switches/{id}/ */
export type FabricSwitch = Schemas['Switch'];

/**
 * POST /api/switches/{id}/drain/ (and undrain/) body: optional, says why; `override_capacity` for
 * admins only, with a non-empty admin_reason. (Partial: openapi-typescript reads a field with a
 * default as always present, which holds for answers, not for bodies.)
 */
export type DrainRequest = Partial<Schemas['DrainRequest']>;

/** 200 answer of an applied drain or undrain (docs/capacity-guard.md). */
export type DrainAnswer = Schemas['DrainResult'];

/** GET /api/fabrics/{id}/recovery/: the ToRs under their requirement and the least-penalty re-enables. */
export type RecoveryProposal = Schemas['RecoveryProposal'];

/** POST /api/fabrics/{id}/recovery/ body: exactly the proposal's link ids. */
export type RecoveryApplyRequest = Schemas['RecoveryApplyRequest'];

/** 200 answer of an applied recovery: what was enabled and the fabric's proposal after it. */
export type RecoveryApplied = Schemas['RecoveryApplied'];

/** The fabric's forecast settings (issue #19), as PATCH /api/fabrics/{id}/ takes them. */
export type ForecastSettings = Pick<
  Fabric,
  'forecast_horizon_days' | 'forecast_min_confidence' | 'auto_preventive_tickets'
>;
