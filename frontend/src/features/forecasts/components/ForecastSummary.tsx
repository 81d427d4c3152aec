import type { LinkForecastAnswer } from '../api/types';
import { forecastSentence } from '../forecastText';

/** The link page's power chart in words: the forecast it draws (nothing when the link has none). */
export function ForecastSummary({ answer, now }: { answer: LinkForecastAnswer; now: Date }) {
  if (!answer.forecast) return null;
  return (
    <p className="forecast-summary" data-testid="power-forecast-text">
      {forecastSentence(answer.forecast, answer.horizon_days, now)}
    </p>
  );
}
