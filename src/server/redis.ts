import { Redis } from 'ioredis';
import { CircuitBreaker } from './circuit-breaker';

/** How long a lookup may wait for Redis before it is served without counting (README, "Security and operations"). */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

/**
 * The Redis client several instances share state through (REDIS_URL), behind a circuit breaker. Every command
 * is bounded (commandTimeout) and fails at once while Redis is not connected (no offline queue), so a stalled
 * or unreachable Redis never holds a lookup for more than REDIS_COMMAND_TIMEOUT_MS; after three failures in a
 * row the breaker opens and lookups skip Redis entirely for a second, then one trial call tests it again.
 * When the breaker opens the connection is dropped and opened afresh, so a frozen socket does not outlive it.
 */
export interface RedisDependency {
  redis: Redis;
  breaker: CircuitBreaker;
  /** Why Redis is degraded right now, or null when it answers. */
  degradedReason(): string | null;
}

export function connectRedis(
  url: string,
  log: (message: string) => void = () => {},
  options: { commandTimeoutMs?: number; openMs?: number } = {},
): RedisDependency {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    // A peer that vanished without closing the socket is noticed by TCP keep-alive.
    keepAlive: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Without a listener an 'error' event would crash the process; reconnecting is ioredis's job.
  redis.on('error', (error) => log(`Redis: ${error.message}`));
  const breaker = new CircuitBreaker('Redis', {
    failureThreshold: 3,
    openMs: options.openMs ?? 1000,
    onOpen: () => {
      log(`Redis: circuit breaker open (${breaker.lastError}); serving without rate-limit counting, reconnecting`);
      // A frozen connection would stay frozen: start a fresh one (commands fail fast until it is ready).
      redis.disconnect(true);
    },
  });
  return {
    redis,
    breaker,
    degradedReason() {
      if (breaker.state !== 'closed') return `circuit breaker ${breaker.state}: ${breaker.lastError}`;
      if (redis.status !== 'ready') return `connection ${redis.status}`;
      return null;
    },
  };
}
