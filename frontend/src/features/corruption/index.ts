/** What the app may use of corruption: CorrOpt's pages (fabric health, decisions, an optimizer run). */
export { DecisionsPage } from './routes/DecisionsPage';
export { FabricHealthPage } from './routes/FabricHealthPage';
export { OptimizerRunPage } from './routes/OptimizerRunPage';
