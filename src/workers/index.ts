export { DeadlinePool, type DeadlineRun, TaskDeadlineError, taskStarted } from './deadline-pool.ts';
export { SharedPool } from './shared-pool.ts';
