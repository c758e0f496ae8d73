export { type CreateOptions, Jobs } from './service.ts';
export { JobStore } from './store.ts';
export { JOB_STATUSES, JOB_TYPES, type JobSummary, type JobType } from './types.ts';
