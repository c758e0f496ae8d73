export { Jobs, type CreateOptions } from './service.ts';
export { JobStore, type CancelOutcome } from './store.ts';
export { itemOperations, type ItemOperation } from './registry.ts';
export { MAX_ITEM_ATTEMPTS } from './executor.ts';
export { JOB_TYPES, JOB_STATUSES, type JobType, type JobStatus, type JobSummary, type JobPage } from './types.ts';
