/** What other features may use of telemetry: a link's readings and charts, and the chart time range. */
export type { Direction, Side } from './api/types';
export { useCorruptionEvents } from './api/useCorruptionEvents';
export { useLinkTelemetry } from './api/useLinkTelemetry';
export { CorruptionEventsTable } from './components/CorruptionEventsTable';
export { DirectionStatusTable } from './components/DirectionStatusTable';
export { LossChart } from './components/LossChart';
export { PowerChart } from './components/PowerChart';
export { RangeControls } from './components/RangeControls';
export { SideReadings } from './components/SideReadings';
export {
  brushedRange,
  rangeFromSearchParams,
  searchParamsWithRange,
  telemetryQuery,
  type TimeRange,
} from './timeRange';
