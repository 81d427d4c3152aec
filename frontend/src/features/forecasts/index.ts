/**
 * What other features may use of forecasts: a link's forecast, the sentence that says it under the
 * power chart, the link page's at-risk header, the crossing in words (the At risk page's, for the Links list), the fabric page's count of links at risk, and how a
 * lane is named to people (counting from 1).
 */
export type { LinkForecast, LinkForecastAnswer } from './api/types';
export { useLinkForecast } from './api/useLinkForecast';
export { ForecastSummary } from './components/ForecastSummary';
export { chartedForecast, crossingText, laneLabel } from './forecastText';
export { LinkAtRisk } from './components/LinkAtRisk';
export { FabricAtRiskCount } from './components/FabricAtRiskCount';
