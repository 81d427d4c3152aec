import { formatTime } from '@/lib/format';

import type { Resolution } from '../api/types';
import { activePresetKey, presetRange, RANGE_PRESETS, type TimeRange, zoomedOutRange } from '../timeRange';

interface RangeControlsProps {
  /** The range in the URL; null is the default (the last 24 hours). */
  range: TimeRange | null;
  /** What the shown data covers, as the API answered. */
  shown: { from: string; to: string; resolution: Resolution } | null;
  onChange: (range: TimeRange | null) => void;
  busy: boolean;
}

export function RangeControls({ range, shown, onChange, busy }: RangeControlsProps) {
  const active = activePresetKey(range);
  const current: TimeRange | null = range ?? (shown ? { from: new Date(shown.from), to: new Date(shown.to) } : null);

  return (
    <div className="range-controls">
      <div role="group" aria-label="Time range" className="range-buttons">
        {RANGE_PRESETS.map((preset) => (
          <button
            key={preset.key}
            type="button"
            aria-pressed={active === preset.key}
            onClick={() => onChange(presetRange(preset.ms, new Date()))}
          >
            {preset.label}
          </button>
        ))}
        <button
          type="button"
          disabled={!current}
          onClick={() => current && onChange(zoomedOutRange(current, new Date()))}
        >
          Zoom out
        </button>
        {range ? (
          <button type="button" className="link-button" onClick={() => onChange(null)}>
            Back to the last 24 h
          </button>
        ) : null}
      </div>
      <p className="range-readout" aria-live="polite" data-testid="range-readout">
        {shown ? (
          <>
            {formatTime(shown.from)} to {formatTime(shown.to)},{' '}
            {shown.resolution === 'hour' ? 'hourly aggregates' : 'every sample'}
            {busy ? ' (loading the new range…)' : ''}. Drag across a chart to zoom in.
          </>
        ) : (
          'Loading…'
        )}
      </p>
    </div>
  );
}
