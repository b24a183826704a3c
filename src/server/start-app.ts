import { join } from 'node:path';
import { buildApp, type AppOptions } from './app';
import { opsSignInOf, type Config } from './config';
import { loadApiKeys, loadCorrespondents, loadOpsApiKeys } from './plugins/app/access';
import { openStore } from './open-store';
import { connectRedis } from './redis';
import type { RateLimitCounters } from './rate-limit-counters';

// The app as the configuration (config.ts) asks for it, with its store and Redis: what the main thread
// (main.ts) and every serving thread (serving-thread.ts) start.

/** The store, Redis and app of one serving thread, as the configuration asks (main thread and serving threads). */
export async function startApp(
  config: Config,
  search: Pick<AppOptions, 'searchIndexFeed' | 'searchIndexHandOn'> = {},
  {
    seedOnStart = config.SEED_ON_START,
    checkIntegrity = true,
    rateLimitCounters,
    leaseOwner,
  }: {
    seedOnStart?: boolean;
    checkIntegrity?: boolean;
    rateLimitCounters?: RateLimitCounters;
    /** The process's desk lease holder id, shared by its serving threads (desk/recovery.ts). */
    leaseOwner?: string;
  } = {},
) {
  const access = {
    correspondents: config.CORRESPONDENTS_FILE ? loadCorrespondents(config.CORRESPONDENTS_FILE) : undefined,
    apiKeys: config.API_KEYS_FILE ? loadApiKeys(config.API_KEYS_FILE) : undefined,
  };
  const store = await openStore({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    seedOnStart,
    checkIntegrity,
    postgres: {
      poolSize: config.PG_POOL_SIZE,
      statementTimeoutMs: config.PG_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: config.PG_CONNECT_TIMEOUT_MS,
    },
    log: (m) => console.log(m),
  });
  const uploadsDir = join(config.DATA_DIR, 'uploads');
  // Several instances behind a load balancer share their rate-limit counters through Redis.
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, (m) => console.warn(m)) : undefined;
  const app = await buildApp({
    store,
    searchIndexSnapshotDir: config.INDEX_SNAPSHOTS === 'on' ? join(config.DATA_DIR, 'search-index') : undefined,
    ...search,
    portalDir: config.PORTAL_DIR,
    logger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] },
    rateLimit: {
      max: config.RATE_LIMIT_MAX,
      timeWindowMs: config.RATE_LIMIT_WINDOW_MS,
      perAddressMax: config.RATE_LIMIT_PER_ADDRESS_MAX,
      globalMax: config.RATE_LIMIT_GLOBAL_MAX,
      redis,
      keyPrefix: config.REDIS_KEY_PREFIX,
      apiKeys: access.apiKeys,
    },
    redis,
    rateLimitCounters,
    metrics: { key: config.METRICS_KEY, separatePort: config.METRICS_PORT !== undefined },
    corsOrigins: config.CORS_ORIGINS,
    access,
    trustProxy: config.TRUST_PROXY,
    uploads: {
      dir: uploadsDir,
      maxBytes: config.OPS_UPLOAD_MAX_BYTES,
      maxUnpackedBytes: config.OPS_XLSX_MAX_UNPACKED_BYTES,
    },
    desk: {
      changeTtlHours: config.DESK_CHANGE_TTL_HOURS,
      versionsKept: config.DESK_VERSIONS_KEPT,
      stageHeapMb: config.OPS_STAGE_HEAP_MB,
      leaseMs: config.DESK_LEASE_SECONDS * 1000,
      leaseOwner,
      // An upload older than a request may take to arrive, that no staging reads, is left over.
      uploads: { dir: uploadsDir, quietMs: config.REQUEST_TIMEOUT_MS },
    },
    ops: {
      ...opsSignInOf(config),
      apiKeys: config.API_KEYS_FILE ? loadOpsApiKeys(config.API_KEYS_FILE) : undefined,
    },
    limits: {
      maxUrlLength: config.MAX_URL_LENGTH,
      maxHeaderSize: config.MAX_HEADER_SIZE,
      headersTimeoutMs: Math.min(config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS),
      requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
      maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS,
    },
  });
  /** Closes the app (in-flight requests finish), then the store and Redis. */
  const close = async () => {
    await app.close();
    await store.close();
    await redis?.redis.quit().catch(() => redis.redis.disconnect());
  };
  return { app, store, close };
}
