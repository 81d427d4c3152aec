/** What other features may use of forecasts: a link's forecast, and the sentence that says it under the power chart. */
export type { LinkForecast, LinkForecastAnswer } from './api/types';
export { useLinkForecast } from './api/useLinkForecast';
export { ForecastSummary } from './components/ForecastSummary';
