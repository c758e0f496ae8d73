export { Jobs, type CreateOptions } from './service.ts';
export { JobStore } from './store.ts';
export { JOB_TYPES, JOB_STATUSES, type JobType, type JobSummary } from './types.ts';
