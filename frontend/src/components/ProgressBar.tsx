import { progressPercent } from './progressPercent';

interface ProgressBarProps {
  /** Fraction done, 0..1 (values outside are clamped). */
  value: number;
  label: string;
  tone?: 'active' | 'done' | 'failed' | 'idle';
  testId?: string;
}

export function ProgressBar({ value, label, tone = 'active', testId }: ProgressBarProps) {
  const percent = progressPercent(value);
  return (
    <div
      className={`progress progress-${tone}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      data-testid={testId}
    >
      <div className="progress-fill" style={{ width: `${percent}%` }} />
      <span className="progress-text">{percent}%</span>
    </div>
  );
}
