export { checkSchedule, ScheduleError } from './schedule.ts';
export { MonitorLimitError, Monitors } from './service.ts';
export type { CheckJob, CheckView, MonitorView } from './types.ts';
