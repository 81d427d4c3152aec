/** The pages of planning: only the app's router imports them (features meet through '@/features/planning', never through pages). */
export { ClassesDetailPage } from './ClassesDetailPage';
export { ClassesPage } from './ClassesPage';
export { PlanDetailPage } from './PlanDetailPage';
export { PlanningPage } from './PlanningPage';
