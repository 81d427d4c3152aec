/** What the app may use of planning: who may plan (for the navigation) and the RAIL pages. */
export { PLANNING_ROLES } from './roles';
export { ClassesDetailPage } from './routes/ClassesDetailPage';
export { ClassesPage } from './routes/ClassesPage';
export { PlanDetailPage } from './routes/PlanDetailPage';
export { PlanningPage } from './routes/PlanningPage';
