/** What the app may use of planning: who may plan (for the navigation). */
export { PLANNING_ROLES } from './roles';
