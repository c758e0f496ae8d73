export { JobStore } from './job-store.ts';
export { type CreateOptions, Jobs } from './service.ts';
export { JOB_STATUSES, JOB_TYPES, type JobSummary, type JobType } from './types.ts';
