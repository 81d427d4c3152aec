/** What the app may use of simulation: who may simulate (for the navigation). */
export { SIMULATION_ROLES } from './roles';
