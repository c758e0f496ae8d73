export { DeadlinePool, type DeadlineRun, TaskDeadlineError, taskStarted } from './deadline-pool.ts';
