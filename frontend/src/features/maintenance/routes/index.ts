/** The pages of maintenance: only the app's router imports them (features meet through '@/features/maintenance', never through pages). */
export { WorkOrderDetailPage } from './WorkOrderDetailPage';
export { WorkOrdersPage } from './WorkOrdersPage';
