import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ProblemError } from '../../problems';
import { syncHook } from '../sync-hook';

declare module 'fastify' {
  interface FastifyInstance {
    metricsRegistry: Registry;
  }
}

export interface MetricsOptions {
  /** METRICS_KEY: /metrics on the service's port wants `Authorization: Bearer <key>`. */
  key?: string;
  /** METRICS_PORT is set: /metrics is served on that port only (startMetricsServer), not on the service's. */
  separatePort?: boolean;
  /** API keys are on: without a metrics key or port, /metrics on the service's port is closed (401). */
  apiKeysOn?: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Prometheus metrics at GET /metrics: per route, method and status a request count and a latency histogram,
 * plus the process metrics (memory, CPU, event-loop lag). A registry per app, so tests can build many.
 * The route label is the route's pattern, never the raw URL: probes of unknown paths all count as
 * "unmatched" and cannot grow the series without bound.
 * Who may read them (README, "Security and operations"): anyone while API keys are off and no METRICS_KEY is
 * set; with METRICS_KEY only its holder; with METRICS_PORT only who reaches that port; with API keys on and
 * neither, nobody on the service's port.
 */
export default fp(
  async function metrics(app: FastifyInstance, options: MetricsOptions) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    app.decorate('metricsRegistry', registry);
    const labelNames = ['method', 'route', 'status'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route and status.',
      labelNames,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its answer, by route and status.',
      labelNames,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });

    app.addHook(
      'onResponse',
      syncHook((request, reply) => {
        const labels = {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        };
        requests.inc(labels);
        duration.observe(labels, reply.elapsedTime / 1000);
      }),
    );

    if (options.separatePort) return;
    const keyHash = options.key === undefined ? undefined : sha256(options.key);
    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      if (keyHash) {
        const given = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
        // Hashes of equal length, compared in constant time.
        if (given === undefined || !timingSafeEqual(sha256(given), keyHash)) {
          throw new ProblemError(
            'unauthorized',
            'The metrics want the metrics key: "Authorization: Bearer <METRICS_KEY>".',
            [],
            { 'www-authenticate': 'Bearer realm="metrics"' },
          );
        }
      } else if (options.apiKeysOn) {
        throw new ProblemError(
          'unauthorized',
          'The metrics are closed on this port while API keys are on; the operator sets METRICS_KEY or METRICS_PORT.',
          [],
          {
            'www-authenticate': 'Bearer realm="metrics"',
          },
        );
      }
      reply.type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);

/** METRICS_PORT: /metrics alone on its own port (an internal network the scraper reaches, the public does not). */
export async function startMetricsServer(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Only GET /metrics is served on this port.\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve()));
  return server;
}
