import type { CircuitMetrics } from '../api/types';
import { metricCards } from '../scheduleFormat';

export function MetricCards({
  metrics,
  periodS,
  slotCount,
}: {
  metrics: CircuitMetrics;
  periodS: number;
  slotCount: number;
}) {
  return (
    <dl className="metric-cards" data-testid="schedule-metrics">
      {metricCards(metrics, periodS, slotCount).map((card) => (
        <div key={card.key} className="metric-card" data-testid={`metric-${card.key}`}>
          <dt>{card.label}</dt>
          <dd>
            <span className="metric-value">{card.value}</span>
            <span className="metric-detail">{card.detail}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
