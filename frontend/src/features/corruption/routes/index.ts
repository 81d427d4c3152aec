/** The pages of corruption: only the app's router imports them (features meet through '@/features/corruption', never through pages). */
export { DecisionsPage } from './DecisionsPage';
export { FabricHealthPage } from './FabricHealthPage';
export { OptimizerRunPage } from './OptimizerRunPage';
