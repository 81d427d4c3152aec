/** The pages of simulation: only the app's router imports them (features meet through '@/features/simulation', never through pages). */
export { SimulationDetailPage } from './SimulationDetailPage';
export { SimulationsPage } from './SimulationsPage';
