import { PlannedFeaturePage } from '../components/PlannedFeaturePage';
import { PLANNED_FEATURES } from '../plannedFeatures';

export function PlanningPage() {
  return <PlannedFeaturePage feature={PLANNED_FEATURES.planning} />;
}
