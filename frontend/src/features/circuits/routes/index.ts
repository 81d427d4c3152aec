/** The pages of circuits: only the app's router imports them (features meet through '@/features/circuits', never through pages). */
export { CircuitsPage } from './CircuitsPage';
export { ScheduleDetailPage } from './ScheduleDetailPage';
