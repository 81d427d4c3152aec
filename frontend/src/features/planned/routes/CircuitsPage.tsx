import { PlannedFeaturePage } from '../components/PlannedFeaturePage';
import { PLANNED_FEATURES } from '../plannedFeatures';

export function CircuitsPage() {
  return <PlannedFeaturePage feature={PLANNED_FEATURES.circuits} />;
}
