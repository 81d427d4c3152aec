/** The pages of forecasts: only the app's router imports them (features meet through '@/features/forecasts', never through pages). */
export { AtRiskPage } from './AtRiskPage';
