/** What the app may use of maintenance: the work order pages. */
export { WorkOrderDetailPage } from './routes/WorkOrderDetailPage';
export { WorkOrdersPage } from './routes/WorkOrdersPage';
