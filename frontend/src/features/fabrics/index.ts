/** What other features may use of fabrics: the fabric queries, the topology view and the capacity chart. */
export type { FabricBrief, FabricCapacity, FabricTopology, TopologyLink, TorCapacity } from './api/types';
export { useFabric } from './api/useFabric';
export { useFabricCapacity } from './api/useFabricCapacity';
export { useFabricChoices } from './api/useFabricChoices';
export { useFabricTopology } from './api/useFabricTopology';
export {
  type CapacityBar,
  type CapacityChartModel,
  type CapacityChartOptions,
  buildCapacityChart,
  capacitySummaryText,
  formatFraction,
} from './components/capacityChart';
export { CapacityLegendItems, CapacityYAxis, ConstraintLine, TorAxis } from './components/CapacityChartParts';
export { chooseRenderer } from './components/linkState';
export { computeTierLayout, type TierLayout } from './components/tierLayout';
export { TopologyView } from './components/TopologyView';
