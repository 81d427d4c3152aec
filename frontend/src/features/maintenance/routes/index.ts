/** The pages of maintenance: only the app's router imports them (features meet through '@/features/maintenance', never through pages). */
export { PlanPage } from './PlanPage';
export { TodayPage } from './TodayPage';
export { WorkOrderDetailPage } from './WorkOrderDetailPage';
export { WorkOrdersPage } from './WorkOrdersPage';
