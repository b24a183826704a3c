import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_LIMITS } from './plugins/app/limits';

// "true"/"false" (and 1/0, yes/no) from the environment; z.coerce.boolean would read "false" as true.
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

/** Comma-separated list; empty entries dropped, so "" is the empty list. */
const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );

const MAX_SERVING_THREADS = 16;

// Configuration comes from the environment only; every variable is documented in README.md.
const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default(join(process.cwd(), 'var')),
  // The search index of the served data version is kept in DATA_DIR/search-index and read back at the next start
  // instead of being built again; off: always built from the store.
  INDEX_SNAPSHOTS: z.enum(['on', 'off']).default('on'),
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORTAL_DIR: z.string().default(join(process.cwd(), 'dist', 'portal')),
  // Threads answering on the one port from one search index, built once and shared, with one set of rate-limit
  // counters and one desk lease holder (serving-threads.ts): by default one per core the process may use.
  SERVING_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_SERVING_THREADS)
    .default(() => Math.min(availableParallelism(), MAX_SERVING_THREADS)),
  // PostgreSQL store (DATABASE_URL=postgres://…): connections per instance, and how long a lookup query or a
  // wait for a connection may take before the request is answered 503 with Retry-After.
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  PG_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).default(5000),
  PG_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(2000),
  // Rate limit per caller (the API key when keys are on; else correspondent id and client address):
  // RATE_LIMIT_MAX lookups per RATE_LIMIT_WINDOW_MS; 0 turns it off. Generous by default: it stops runaway
  // clients, not tellers.
  RATE_LIMIT_MAX: z.coerce.number().int().min(0).default(1200),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1).default(60_000),
  // Ceilings counted alongside the per-caller budget: per client address, and for the whole service.
  RATE_LIMIT_PER_ADDRESS_MAX: z.coerce.number().int().min(1).optional(),
  RATE_LIMIT_GLOBAL_MAX: z.coerce.number().int().min(1).optional(),
  // Shared state of several instances (rate-limit counters) lives in Redis when set; in memory otherwise.
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().default('rpl:'),
  // Security and operations (README.md, "Security and operations").
  /** false: a missing database file is an error at start instead of being created and seeded. */
  SEED_ON_START: flag(true),
  /** Browser origins allowed to call the API cross-origin; empty (the default) = CORS closed. */
  CORS_ORIGINS: list,
  /** File of registered correspondent ids (x-fapi-financial-id), one a line; unset = registry off. */
  CORRESPONDENTS_FILE: z.string().optional(),
  /** JSON file of API key hashes and the correspondent ids each key may use; unset = keys off. */
  API_KEYS_FILE: z.string().optional(),
  /** Longest accepted request target (path and query), in bytes; longer gets 414. */
  MAX_URL_LENGTH: z.coerce.number().int().min(256).max(65536).default(DEFAULT_LIMITS.maxUrlLength),
  /** Largest accepted request head (request line and headers), in bytes; larger gets 431. */
  MAX_HEADER_SIZE: z.coerce.number().int().min(1024).max(65536).default(DEFAULT_LIMITS.maxHeaderSize),
  /** The request head must arrive within this many ms (else 408); at most REQUEST_TIMEOUT_MS. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_LIMITS.headersTimeoutMs),
  /** The whole request must arrive within this many ms (else 408). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_LIMITS.requestTimeoutMs),
  /** Open connections one client address may hold; more are answered 429 and closed. */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(DEFAULT_LIMITS.maxConnectionsPerAddress),
  /** /metrics on the service's port wants "Authorization: Bearer <METRICS_KEY>" (at least 24 characters). */
  METRICS_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  /** Serve /metrics on this port only (on METRICS_HOST), not on the service's port. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** How long SIGTERM waits for in-flight requests before giving up (exit 1). */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  // The operations desk's sign-in (docs/operations.md, "Ops accounts and sessions").
  /** A session unused this many minutes ends. */
  OPS_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** A session ends this many hours after sign-in, used or not. */
  OPS_SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .min(0.1)
    .max(24 * 30)
    .default(12),
  /** Sign-in attempts per account name, and per client address, per OPS_SIGN_IN_WINDOW_MINUTES. */
  OPS_SIGN_IN_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  OPS_SIGN_IN_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  OPS_SIGN_IN_WINDOW_MINUTES: z.coerce.number().min(1).default(15),
  /** Trust X-Forwarded-For/-Proto from a proxy in front: client addresses, and https for Secure cookies. */
  TRUST_PROXY: flag(false),
  /** Largest file an ops upload may be, in bytes (413 past it); uploads are streamed to DATA_DIR/uploads. */
  OPS_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(512 * 1024 * 1024),
  /** An XLSX upload is refused once its parts inflate past this many bytes (a zip bomb; memory stays bounded). */
  OPS_XLSX_MAX_UNPACKED_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(256 * 1024 * 1024),
  // Operations desk (docs/import.md, "The operations desk's engine").
  /** A staged change nobody acts on for this many hours expires (default 7 days). */
  DESK_CHANGE_TTL_HOURS: z.coerce.number().min(1).default(168),
  /**
   * How long a change being staged or published stays held by its instance without a renewal (renewed every
   * third of it): past it, after a crash, another instance (or this one restarted) completes or releases it.
   */
  DESK_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /** Published versions kept per kind, each with the snapshot a rollback restores (default the last 10). */
  DESK_VERSIONS_KEPT: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * The heap (MB) of the worker thread that stages a large change: a 1,000,000-row branch file staged against
   * the shipped data needs about 400; a file past it fails staging with a message saying to raise this.
   */
  OPS_STAGE_HEAP_MB: z.coerce.number().int().min(128).max(16384).default(768),
});
export type Config = z.infer<typeof environment>;

/** Every variable's default (the configuration of an empty environment): the one place a default is written. */
export const DEFAULTS: Config = environment.parse({});

/** The operations desk's sessions and sign-in limits, as the ops-auth plugin takes them. */
export const opsSignInOf = (config: Config) => ({
  idleMs: config.OPS_SESSION_IDLE_MINUTES * 60_000,
  absoluteMs: config.OPS_SESSION_ABSOLUTE_HOURS * 3_600_000,
  signInLimit: {
    perAccountMax: config.OPS_SIGN_IN_MAX_PER_ACCOUNT,
    perAddressMax: config.OPS_SIGN_IN_MAX_PER_ADDRESS,
    windowMs: config.OPS_SIGN_IN_WINDOW_MINUTES * 60_000,
  },
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
