/** What the app may use of simulation: who may simulate (for the navigation) and the simulation pages. */
export { SIMULATION_ROLES } from './roles';
export { SimulationDetailPage } from './routes/SimulationDetailPage';
export { SimulationsPage } from './routes/SimulationsPage';
