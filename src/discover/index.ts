export { discover, type DiscoverInput, type DiscoverResult } from './discover.ts';
export { DEFAULT_LIMITS, type DiscoverLimits } from './limits.ts';
