import { formatTime } from '@/lib/format';

import './Time.css';

/** A time as the UI shows it ("2026-11-26 16:22 UTC", see formatTime), kept on one line: on a phone a
 * table cell would otherwise wrap it at every hyphen and space. "—" when there is no time. */
export function Time({ value }: { value: string | null | undefined }) {
  const text = formatTime(value);
  return value && text !== value ? (
    <time className="time" dateTime={value}>
      {text}
    </time>
  ) : (
    <span className="time">{text}</span>
  );
}
