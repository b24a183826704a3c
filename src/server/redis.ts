import { Redis } from 'ioredis';

/**
 * The Redis client several instances share state through (REDIS_URL). Commands fail fast while Redis is
 * unreachable instead of queueing, so a Redis outage never holds a lookup; the client reconnects by itself.
 */
export function connectRedis(url: string, log: (message: string) => void = () => {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Without a listener an 'error' event would crash the process; reconnecting is ioredis's job.
  redis.on('error', (error) => log(`Redis: ${error.message}`));
  return redis;
}
