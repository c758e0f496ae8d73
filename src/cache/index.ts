export {
  type CacheEntry,
  type CacheMatch,
  cacheKey,
  PageCache,
  type PageCacheOptions,
} from './page-cache.ts';
