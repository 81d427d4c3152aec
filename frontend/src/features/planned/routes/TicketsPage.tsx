import { PlannedFeaturePage } from '../components/PlannedFeaturePage';
import { PLANNED_FEATURES } from '../plannedFeatures';

export function TicketsPage() {
  return <PlannedFeaturePage feature={PLANNED_FEATURES.tickets} />;
}
