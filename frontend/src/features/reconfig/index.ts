/** What the app may use of reconfig: who may start its jobs (for the navigation). */
export { RECONFIG_JOB_ROLES } from './roles';
