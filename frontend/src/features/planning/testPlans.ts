/**
 * Real engine results shaped as the server returns them (fixtures/generate.py writes them from
 * lightpath_engine.rail_plan / rail_classes on a k = 4 fat tree with lengths uniform on 0-560 m).
 */
import type { FabricTopology } from '@/features/fabrics';

import type { ClassesResult, PlanResult } from './api/types';
import classesJson from './fixtures/classes.json';
import planHighJson from './fixtures/plan-high.json';
import planLowJson from './fixtures/plan-low.json';
import topologyJson from './fixtures/topology.json';

/** NRB 0.99: links up to 480 m take SR, longer ones LR. */
export const PLAN_LOW = planLowJson as unknown as PlanResult;
/** NRB 0.95 on the same lengths: every link takes SR. */
export const PLAN_HIGH = planHighJson as unknown as PlanResult;
export const CLASSES = classesJson as unknown as ClassesResult;
export const CLASSES_TOPOLOGY = topologyJson as unknown as FabricTopology;
