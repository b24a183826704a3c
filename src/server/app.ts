import type { ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { UUID_SHAPED_PATTERN } from '../contract';
import { DEFAULTS, opsSignInOf } from './config';
import { buildOpenApiDocument } from './openapi';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemBody, sendProblem } from './problems';
import securityHeaders, { DOCUMENT_ONLY_HEADERS } from './plugins/external/helmet';
import crossOrigin from './plugins/external/cors';
import compression from './plugins/external/compress';
import access, { type AccessOptions } from './plugins/app/access';
import audit from './plugins/app/audit';
import metrics, { type MetricsOptions } from './plugins/app/metrics';
import {
  DEFAULT_LIMITS,
  capConnectionsPerAddress,
  clientErrorAsProblem,
  type Limits,
  hostRequired,
  requestTargetLimit,
  wellFormedQueryEscapes,
} from './plugins/app/limits';
import operationsRoutes from './routes/operations';
import { ReferenceCache } from './reference-cache';
import { SearchService, type HandedIndex, type IndexFeed } from './search/search-service';
import { StoreUnavailableError, type LookupStore } from './store/store';
import rateLimit, { type RateLimitOptions } from './plugins/external/rate-limit';
import type { RedisDependency } from './redis';
import { OPERATIONS, v1Routes } from './routes/v1';
import fastifyRateLimit from '@fastify/rate-limit';
import { RateLimitCounters, rateLimitStorage } from './rate-limit-counters';
import opsAuth, { type OpsAuthOptions } from './plugins/app/ops-auth';
import { opsAccountsOf, type OpsAccountStore } from './store/ops-accounts';
import { opsV1Routes } from './routes/v1/ops';
import fastifyMultipart from '@fastify/multipart';
import { tmpdir } from 'node:os';
import { DeskEngine, type DeskOptions } from './desk/engine';
import type { ChangeDesk } from './desk/desk';
import { reportRoutes, type ReportLimit } from './routes/v1/reports';

declare module 'fastify' {
  interface FastifyInstance {
    store: LookupStore;
    reference: ReferenceCache;
    searchIndex: SearchService;
    /** Redis (REDIS_URL), when configured: /readyz reports it degraded. */
    redis: RedisDependency | null;
    /** The operations desk's accounts and sessions, in the store's database. */
    opsAccounts: OpsAccountStore;
    /** The operations desk's engine (desk/engine.ts): changes, versions, audit. */
    desk: ChangeDesk;
    /** Where uploads are streamed before staging, and how large one may be (OPS_UPLOAD_MAX_BYTES). */
    opsUploads: { dir: string; maxBytes: number; maxUnpackedBytes: number };
  }
  interface FastifyRequest {
    correlationId: string;
  }
}

export interface AppOptions {
  store: LookupStore;
  /** Folder of the built portal (vite build); the portal is served at / when it exists. */
  portalDir?: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * Per-correspondent rate limit of the /v1 lookups (main passes RATE_LIMIT_MAX / RATE_LIMIT_WINDOW_MS, on by
   * default there). Absent here means off, so tests that drive thousands of requests opt in explicitly.
   */
  rateLimit?: RateLimitOptions;
  /** Who may read /metrics (METRICS_KEY, METRICS_PORT); see plugins/app/metrics.ts. */
  metrics?: Omit<MetricsOptions, 'apiKeysOn'>;
  /** The shared Redis (REDIS_URL), when configured; the rate limit takes it in `rateLimit.redis`. */
  redis?: RedisDependency;
  /** Browser origins allowed cross-origin (CORS_ORIGINS); empty or absent = CORS closed. */
  corsOrigins?: string[];
  /** Correspondent registry and API keys (CORRESPONDENTS_FILE, API_KEYS_FILE); absent = both off. */
  access?: AccessOptions;
  /** MAX_URL_LENGTH and MAX_HEADER_SIZE; see README.md, "Security and operations". */
  limits?: Partial<Limits>;
  /**
   * How the search index is built: 'worker' (default; the app answers /readyz 503 and lookups 503 until the
   * first index is in place) or 'inline' (built before buildApp returns; small data sets, tests).
   */
  searchIndexBuild?: 'worker' | 'inline';
  /** Where the search index's snapshots are kept (INDEX_SNAPSHOTS; search/snapshot.ts); none: always built. */
  searchIndexSnapshotDir?: string;
  /** SERVING_THREADS (serving-threads.ts): a serving thread's indexes come from the main thread… */
  searchIndexFeed?: IndexFeed;
  /** …which hands each one it built on to them before it serves it. */
  searchIndexHandOn?: (index: HandedIndex) => Promise<void>;
  /** The rate-limit counters without Redis: the process's, shared by its serving threads; a new table if absent. */
  rateLimitCounters?: RateLimitCounters;
  /** The operations desk's sign-in (OPS_* variables; plugins/app/ops-auth.ts); defaults below. */
  ops?: Partial<Omit<OpsAuthOptions, 'accounts'>>;
  /** Trust X-Forwarded-* from a proxy in front (TRUST_PROXY): the client address, and https for Secure cookies. */
  trustProxy?: boolean | string;
  /** The desk engine's settings (DESK_CHANGE_TTL_HOURS, DESK_VERSIONS_KEPT, DESK_LEASE_SECONDS, recovery). */
  desk?: DeskOptions;
  /** Uploads: folder (default DATA_DIR/uploads in main; the system's temporary folder here) and size limit. */
  uploads?: { dir?: string; maxBytes?: number; maxUnpackedBytes?: number };
  /** Tellers' reports per correspondent id per window (routes/v1/reports.ts); defaults there. */
  reportLimit?: Partial<ReportLimit>;
}

const OPS_DEFAULTS = opsSignInOf(DEFAULTS);

/** A path the portal's router may own: not the API, not an asset folder, no file extension in its last segment. */
const isPortalRoute = (path: string) =>
  !/^\/(v1|assets)(\/|$)/.test(path) && !/\.[^/]*$/.test(path.slice(path.lastIndexOf('/')));
/**
 * Vite names every file under assets/ by a hash of its content, so a browser keeps it for a year without
 * asking again; everything else (index.html, which names the current hashes, and the favicon) is
 * revalidated on each visit (ETag / Last-Modified, a 304 when unchanged).
 */
const portalCacheHeaders =
  (portalDir: string) =>
  // @fastify/static 9 (10 asks for Node 22 through content-disposition@3) hands over the raw response, whatever
  // its types say.
  (response: object, file: string) => {
    const res = response as Pick<ServerResponse, 'setHeader' | 'removeHeader'>;
    const hashed = relative(portalDir, file).split(sep)[0] === 'assets';
    res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    // Every file has .br/.gz twins: which one is sent depends on Accept-Encoding (9 does not say so itself).
    res.setHeader('vary', 'accept-encoding');
    if (hashed) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
  };
/** The header naming the search index's own warm-up requests (with a token only this process knows). */
const WARM_UP_HEADER = 'x-search-warm-up';
const acceptsHtml = (accept: string | undefined) => accept !== undefined && /\btext\/html\b/.test(accept);

/**
 * Builds the whole application: the server's main and the tests call this same function (tests use
 * app.inject() against it), so there is no second wiring for tests.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const app = Fastify({
    logger: options.logger ?? false,
    // The audit plugin writes the one log line per request; Fastify's own two would duplicate it.
    logController: new LogController({ disableRequestLogging: true }),
    // Node answers a request head over this size before Fastify sees it; clientErrorHandler shapes that 431.
    // requireHostHeader off: Node would answer a Host-less HTTP/1.1 request with a bare 400; hostRequired
    // answers it in the problem shape, with the security headers.
    // The timeouts are checked every connectionsCheckingInterval (Node's default 30 s would let a slow client
    // hold its socket up to that much longer); a late request gets 408 from clientErrorHandler.
    http: {
      maxHeaderSize: limits.maxHeaderSize,
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: 500,
    },
    requestTimeout: limits.requestTimeoutMs,
    trustProxy: options.trustProxy ?? false,
    // A path parameter (GET /v1/codes/{code}) as long as the request target allows: an over-long code is then
    // the route's 400 naming the parameter, not the router's 404.
    routerOptions: { maxParamLength: limits.maxUrlLength },
    clientErrorHandler: clientErrorAsProblem,
    // A path Fastify cannot decode (bad %-escape) is the client's mistake: a 400 problem, like any other.
    frameworkErrors: (error, request, reply) => {
      request.correlationId = request.id;
      reply.header('x-correlation-id', request.id);
      return sendProblem(request, reply, 'invalidRequest', error.message);
    },
    // Ids come from x-correlation-id (or a fresh UUID v4), so logs and answers carry the same id.
    genReqId: (request) => {
      const given = request.headers['x-correlation-id'];
      return typeof given === 'string' && UUID_SHAPED_PATTERN.test(given) ? given : randomUUID();
    },
  });

  // Every static route's methods, so a known path asked with another method gets 405 and Allow, not 404.
  const routeMethods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (/[:*]/.test(route.url)) return;
    const methods = routeMethods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    if (methods.has('GET')) methods.add('HEAD');
    routeMethods.set(route.url, methods);
  });

  capConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress);

  const reference = new ReferenceCache(options.store);
  await reference.refresh();
  app.decorate('store', options.store);
  app.decorate('reference', reference);
  app.decorate('redis', options.redis ?? options.rateLimit?.redis ?? null);
  // The warm-up's requests carry this token (they never leave the process: app.inject), so the audit log leaves
  // them out, the rate limit does not count them, the access check lets them through and the search service
  // answers them from the index it is warming up.
  const warmUpToken = randomUUID();
  const isWarmUp = (request: Pick<FastifyRequest, 'headers'>) => request.headers[WARM_UP_HEADER] === warmUpToken;
  const search = new SearchService({
    store: options.store,
    build: options.searchIndexBuild ?? 'worker',
    snapshotDir: options.searchIndexSnapshotDir,
    feed: options.searchIndexFeed,
    handOn: options.searchIndexHandOn,
    log: (message, details) => app.log.info(details ?? {}, message),
    isWarmUp,
    // A new index answers a few hundred searches through the routes before it serves (search-service.ts).
    // Inline builds (tests, small data sets) happen before the routes exist and need none.
    warmUp:
      options.searchIndexBuild === 'inline'
        ? undefined
        : async (index) => {
            for (const url of index.warmUpPaths()) {
              await app.inject({
                method: 'GET',
                url,
                headers: { 'x-fapi-financial-id': 'WARMUP', [WARM_UP_HEADER]: warmUpToken },
              });
              // An injected request settles in microtasks alone: without this the whole warm-up would hold the
              // event loop, and the lookups arriving meanwhile would wait for all of it.
              await new Promise((resolve) => setImmediate(resolve));
            }
          },
  });
  app.decorate('searchIndex', search);
  const opsAccounts = opsAccountsOf(options.store);
  app.decorate('opsAccounts', opsAccounts);
  const desk = new DeskEngine(options.store, {
    log: (m) => app.log.info(m),
    // "Published" means this instance's lookups serve it (engine.ts, catchUp).
    onPublished: () => search.catchUp(),
    ...options.desk,
  });
  app.decorate('desk', desk);
  app.addHook('onClose', () => desk.close());
  // What a stopped instance left half done (desk/recovery.ts), when the uploads' folder is the service's own.
  if (options.desk?.uploads) desk.startRecovery();
  app.decorate('opsUploads', {
    dir: options.uploads?.dir ?? join(tmpdir(), 'rpl-uploads'),
    maxBytes: options.uploads?.maxBytes ?? DEFAULTS.OPS_UPLOAD_MAX_BYTES,
    maxUnpackedBytes: options.uploads?.maxUnpackedBytes ?? DEFAULTS.OPS_XLSX_MAX_UNPACKED_BYTES,
  });
  app.addHook('onClose', () => search.close());
  if (options.searchIndexBuild === 'inline') await search.rebuild();
  else void search.rebuild();
  app.decorateRequest('correlationId', '');

  // Plugins by role: external ones first (their hooks then run first, so even a refused request gets the
  // security headers), then the app's own (audit, metrics), then routes.
  await app.register(securityHeaders);
  await app.register(crossOrigin, { origins: options.corsOrigins ?? [] });
  // Before every route: @fastify/compress attaches itself to the routes declared after it.
  await app.register(compression);

  // The store's data version is looked at once a second, off every request's path: the request that finds the
  // check due starts it and is answered at once, like every other request, from the data version this process
  // holds (x-data-version); the index and the reference lists move to a new version when the check has seen it.
  // Awaited, the check held that one request a second for the database's round trip, which under full load is
  // long on PostgreSQL (its backend waits for a CPU), longer while an import writes: the long tail of the lookups'
  // latency. A database that cannot say its version right now stops nothing: the lookups held
  // in memory keep answering, the ones that read the store answer 503, and the next check tries again.
  let freshness: Promise<void> | undefined;
  const lookAtDataVersion = (now: number) => {
    freshness = reference
      .ensureFresh(now)
      .then(() => search.ensureFresh(now))
      .catch((error: Error) => {
        if (error instanceof StoreUnavailableError)
          app.log.warn({ err: error }, 'data version check failed; answering from memory');
        else app.log.error({ err: error }, 'data version check failed');
      })
      .finally(() => (freshness = undefined));
  };
  // Bounded: each query has the pool's query timeout.
  app.addHook('onClose', () => freshness);

  // Every answer, errors included, echoes the correlation id and (when given and well-formed) the
  // idempotency key. In callback form: nothing here waits (no promise per request: sync-hook.ts).
  app.addHook('onRequest', (request, reply, done) => {
    request.correlationId = request.id;
    reply.header('x-correlation-id', request.id);
    const key = request.headers['x-idempotency-key'];
    if (typeof key === 'string' && UUID_SHAPED_PATTERN.test(key)) reply.header('x-idempotency-key', key);
    if (freshness === undefined && request.url.startsWith('/v1/')) {
      const now = Date.now();
      if (reference.checkDue(now) || search.checkDue(now)) lookAtDataVersion(now);
    }
    done();
  });
  // Right after the correlation id is known: an over-long request target is refused with 414.
  app.addHook('onRequest', requestTargetLimit(limits.maxUrlLength));
  app.addHook('onRequest', hostRequired);
  app.addHook('onRequest', wellFormedQueryEscapes);

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    // An error answer is not the data a handler had begun to answer with: no ETag of it, and a data version
    // only on a 404 of a by-id lookup (the version that does not hold the id).
    reply.removeHeader('etag');
    if (!(error instanceof ProblemError && error.kind === 'notFound')) reply.removeHeader('x-data-version');
    if (error instanceof StoreUnavailableError) {
      // The database is down or too slow: tell the client when to retry; the pool reconnects by itself.
      request.log.warn({ err: error }, 'store unavailable');
      reply.header('retry-after', String(error.retryAfterSeconds));
      return sendProblem(
        request,
        reply,
        'unavailable',
        'The lookup data is temporarily unavailable; retry after the time in Retry-After.',
      );
    }
    if (error instanceof ProblemError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendProblem(request, reply, error.kind, error.detail, error.errors);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return sendProblem(request, reply, 'tooManyRequests', error.message);
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad content type, body on GET, too-long URL…): a 400 without internals.
      return sendProblem(request, reply, 'invalidRequest', error.message);
    }
    if (status === 503) {
      if (!reply.hasHeader('retry-after')) reply.header('retry-after', '5');
      return sendProblem(request, reply, 'unavailable', 'The service is temporarily unavailable; try again shortly.');
    }
    request.log.error({ err: error }, 'request failed');
    return sendProblem(
      request,
      reply,
      'internal',
      'The request could not be completed. Quote the correlation id to support.',
    );
  });

  const portalDir = options.portalDir;
  const portalBuilt = portalDir !== undefined && existsSync(join(portalDir, 'index.html'));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = routeMethods.get(path);
    if (allowed) {
      const allow = [...allowed].sort().join(', ');
      reply.header('allow', allow);
      return sendProblem(
        request,
        reply,
        'methodNotAllowed',
        `${request.method} is not allowed on ${path}; allowed: ${allow}.`,
      );
    }
    // The portal is a single-page app: a portal route (a GET that wants HTML, a path without a file
    // extension, outside /v1 and /assets) gets its index, so deep links work. Anything else is a 404: an
    // unknown asset or a probe for /.env must not be answered with the portal's page.
    if (portalBuilt && request.method === 'GET' && isPortalRoute(path) && acceptsHtml(request.headers.accept)) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply
      .code(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(
        problemBody(
          'notFound',
          `No operation at ${request.method} ${path}; see /v1/openapi.json.`,
          request.correlationId,
        ),
      );
  });

  // The counters of every rate limit when there is no Redis: the process's table, shared by its serving threads
  // (main.ts); else a table of this app's own.
  const rateLimitCounters = options.rateLimitCounters ?? new RateLimitCounters();
  if (options.rateLimit)
    await app.register(rateLimit, { ...options.rateLimit, counters: rateLimitCounters, skip: isWarmUp });
  // The audit log keeps the values of the operations' query parameters only.
  await app.register(audit, {
    parameters: OPERATIONS.flatMap((operation) => Object.keys(operation.query.shape)),
    skip: isWarmUp,
  });
  await app.register(metrics, { ...options.metrics, apiKeysOn: options.access?.apiKeys !== undefined });
  await app.register(operationsRoutes);

  const openApiDocument = buildOpenApiDocument();
  app.get('/v1/openapi.json', { logLevel: 'warn' }, async () => openApiDocument);
  await app.register(swagger, { mode: 'static', specification: { document: openApiDocument as never } });
  // swagger-ui runs under the app's CSP (its scripts are files); no validator badge from another origin.
  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { validatorUrl: null } });

  // The lookups, behind the access check (registry, API keys) when it is configured.
  await app.register(
    async (lookups) => {
      await lookups.register(access, { ...options.access, skip: isWarmUp });
      await lookups.register(v1Routes);
      await lookups.register(reportRoutes, {
        limit: options.reportLimit,
        redis: options.redis ?? options.rateLimit?.redis,
        counters: rateLimitCounters,
      });
    },
    { prefix: '/v1' },
  );

  // The operations desk: its own scope, not behind the lookups' access check (a correspondent id or
  // a lookups key is no ops credential); ops-auth resolves the account or key and checks CSRF.
  await app.register(
    async (ops) => {
      // Counters of the sign-in budget: the lookups' rate limit registers the plugin when on; else here.
      if (!ops.hasDecorator('createRateLimit')) {
        await ops.register(fastifyRateLimit, {
          global: false,
          ...rateLimitStorage('rpl-ops-rate-limit:', options.redis?.redis, rateLimitCounters),
        });
      }
      await ops.register(fastifyMultipart, { limits: { fileSize: app.opsUploads.maxBytes, files: 1, fields: 10 } });
      await ops.register(opsAuth, {
        ...OPS_DEFAULTS,
        // Sign-ins, failed sign-ins, sign-outs and account changes go to the desk's audit trail.
        audit: (event) => desk.recordOpsEvent(event),
        reviseAudit: (id, detail) => desk.reviseOpsEvent(id, detail),
        ...options.ops,
        signInLimit: { ...OPS_DEFAULTS.signInLimit, ...options.ops?.signInLimit },
        accounts: opsAccounts,
      });
      await ops.register(opsV1Routes);
    },
    { prefix: '/v1/ops' },
  );

  if (portalBuilt) {
    await app.register(fastifyStatic, {
      root: portalDir,
      wildcard: false,
      // An array: with preCompressed, @fastify/static finds the index of / only in this form.
      index: ['index.html'],
      // The build writes .br and .gz beside each file (vite.config.ts); they are sent as they are.
      preCompressed: true,
      // Cache-Control is ours (setHeaders), not send's default max-age=0.
      cacheControl: false,
      setHeaders: portalCacheHeaders(portalDir),
    });
  }
  return app;
}
