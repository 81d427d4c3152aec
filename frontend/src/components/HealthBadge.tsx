import { LINK_HEALTH_STYLE, type LinkHealth } from '@/lib/linkHealth';

/** The health word on its colour; the word is the accessible content, the colour only repeats it. */
export function HealthBadge({ health }: { health: LinkHealth }) {
  return (
    <span
      className={`badge badge-health-${health}`}
      data-testid="health-badge"
      data-health={health}
      title={`${LINK_HEALTH_STYLE[health].label}: ${LINK_HEALTH_STYLE[health].meaning}`}
    >
      {health}
    </span>
  );
}
