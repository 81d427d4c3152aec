/**
 * The one place the UI turns times and numbers into text. Every time is shown in UTC as
 * "2026-11-26 16:22 UTC": operators, the chart axes, the CLI and the logs all read UTC, so a
 * time copied from one page matches the others.
 */

const COUNT = new Intl.NumberFormat('en-US');

/** "2026-11-26 16:22 UTC"; "—" when there is no time; an unparseable value as it came. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "2026-11-26 16:22 UTC (3 h ago)": the time and, beside it, how long ago (or "in 2 h"). */
export function formatTimeWithAge(iso: string | null | undefined, now: Date = new Date()): string {
  const text = formatTime(iso);
  if (!iso || !text.endsWith(' UTC')) return text;
  const then = new Date(iso).getTime();
  if (then > now.getTime() + 60_000) return `${text} (in ${formatAge(now.toISOString(), new Date(then))})`;
  return `${text} (${formatAge(iso, now)} ago)`;
}

/** The text a time field holds, as every time is shown but without the zone: "2026-11-26 16:22". */
export function timeInputValue(iso: string | null | undefined): string {
  const text = formatTime(iso);
  return text.endsWith(' UTC') ? text.slice(0, 16) : '';
}

/** A typed time read as UTC, "2026-11-26 16:22" (or "2026-11-26", midnight; a "T" and a trailing
 * " UTC" are accepted) -> "2026-11-26T16:22:00Z"; undefined when empty or not such a time. */
export function parseTimeInput(text: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}))?(?: ?UTC| ?Z)?$/i.exec(text.trim());
  if (!match) return undefined;
  const iso = `${match[1]}T${match[2] ?? '00:00'}:00Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 16) !== iso.slice(0, 16) ? undefined : iso;
}

/** The pattern a time field checks before submit, and the example it shows. */
export const TIME_INPUT_PATTERN = String.raw`\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2})?( ?UTC)?`;
export const TIME_INPUT_EXAMPLE = '2026-11-26 16:22';

/** "2026-11-27 08:00–09:30 UTC" (the day once when both ends share it); "—" when either is missing. */
export function formatTimeRange(startIso: string | null | undefined, endIso: string | null | undefined): string {
  const start = formatTime(startIso);
  const end = formatTime(endIso);
  if (!startIso || !endIso || !start.endsWith(' UTC') || !end.endsWith(' UTC')) return '—';
  const sameDay = start.slice(0, 10) === end.slice(0, 10);
  return sameDay ? `${start.slice(0, 16)}–${end.slice(11)}` : `${start.slice(0, 16)} – ${end}`;
}

/** "08:00": the UTC clock time alone, for axis ticks beside a title that names the day and zone. */
export function formatClock(instant: string | Date): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) return '—';
  return date.toISOString().slice(11, 16);
}

/** "12,345": counts with thousands separators (what toLocaleString('en-US') gives). */
export function formatCount(value: number): string {
  return COUNT.format(value);
}

/** "12.3%" from the fraction 0.123; "—" when not a number. */
export function formatPercent(fraction: number, digits = 1): string {
  if (!Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(digits)}%`;
}

/**
 * "−13.6 dBm" with a true minus sign (U+2212), the one way the screen writes optical power; "—"
 * when there is no reading. Only the screen: the API and the CSV keep ASCII numbers ("-13.6").
 */
export function formatDbm(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const text = value.toFixed(digits);
  // A reading that rounds to zero is "0.0", not "−0.0".
  return `${Number(text) === 0 ? text.replace('-', '') : text.replace('-', '−')} dBm`;
}

/** "100 Gb/s"; "—" when the speed is unknown. */
export function formatGbps(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${formatCount(value)} Gb/s`;
}

/** Seconds as ms below one second, s below two minutes, else min (three significant digits). */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Number((seconds * 1000).toPrecision(3))} ms`;
  if (seconds < 120) return `${Number(seconds.toPrecision(3))} s`;
  return `${Number((seconds / 60).toPrecision(3))} min`;
}

/** "1.5 h"; "—" when there is no duration. */
export function formatHours(hours: number | null | undefined, digits = 1): string {
  if (hours === null || hours === undefined || !Number.isFinite(hours)) return '—';
  return `${hours.toFixed(digits)} h`;
}

/** "45 min", "5 h", "3 d": how long ago, coarse enough to read at a glance. */
export function formatAge(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '—';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return '—';
  const minutes = Math.max(0, Math.floor((now.getTime() - then) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

const BIT_PREFIXES = ['Gbit', 'Tbit', 'Pbit', 'Ebit'] as const;

/** Gigabits read at a glance: "512 Gbit", "3.68 Tbit", "5.42 Pbit" (three significant digits). */
export function formatGbit(gbit: number | null | undefined): string {
  if (gbit === null || gbit === undefined || !Number.isFinite(gbit)) return '—';
  let value = gbit;
  let prefix = 0;
  while (Math.abs(value) >= 1000 && prefix < BIT_PREFIXES.length - 1) {
    value /= 1000;
    prefix += 1;
  }
  const digits = Math.abs(value) >= 100 || value === 0 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${formatCount(Number(value.toFixed(digits)))} ${BIT_PREFIXES[prefix]}`;
}

/** A reason with its codes in words: "repair: reseat_transceiver" -> "repair: reseat transceiver".
 * Only snake_case words change; what a person typed otherwise stays as it is. */
export function formatReason(reason: string): string {
  return reason.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (code) => code.replaceAll('_', ' '));
}
