/** What the app and other features may use of circuits: the circuit switches of a fabric and the circuits pages. */
export { useCircuitSwitches } from './api/useCircuitSwitches';
export { CircuitsPage } from './routes/CircuitsPage';
export { ScheduleDetailPage } from './routes/ScheduleDetailPage';
