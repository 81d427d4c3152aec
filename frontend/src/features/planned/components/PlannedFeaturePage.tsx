import type { PlannedFeature } from '../plannedFeatures';

export function PlannedFeaturePage({ feature }: { feature: PlannedFeature }) {
  const headingId = `planned-${feature.title.toLowerCase()}`;
  return (
    <section aria-labelledby={headingId} data-testid="planned-feature">
      <h1 id={headingId}>{feature.title}</h1>
      <p className="notice" role="note">
        Not available yet: the backend for this page has not been built. Nothing below is live data.
      </p>
      <p className="lede">{feature.summary}</p>
      <h2>What will live here</h2>
      <ul>
        {feature.willShow.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <dl className="facts">
        <div>
          <dt>Delivered by the issue</dt>
          <dd>{feature.issue}</dd>
        </div>
        <div>
          <dt>Lands in</dt>
          <dd>{feature.lands}</dd>
        </div>
        <div>
          <dt>Design reference</dt>
          <dd>{feature.reference}</dd>
        </div>
      </dl>
    </section>
  );
}
