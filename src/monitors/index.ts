export { checkSchedule, type Schedule, ScheduleError } from './schedule.ts';
export { MonitorLimitError, type MonitorSettings, Monitors } from './service.ts';
export {
  type CheckJob,
  type CheckPage,
  type CheckView,
  type MonitorPatch,
  type MonitorView,
  NOTIFY,
  type Notify,
} from './types.ts';
