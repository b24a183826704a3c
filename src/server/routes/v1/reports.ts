import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import type { ProblemParameter } from '../../../contract';
import { financialId } from '../../../contract/lookups';
import { reportBody, reportReceipt, type ReportReceipt } from '../../../contract/reports';
import { deskDbOf } from '../../desk/db';
import { parseRecordKey, recordKeyOf } from '../../../contract/record-key';
import { createReport } from '../../desk/reports';
import { ProblemError } from '../../problems';
import type { RedisDependency } from '../../redis';
import { rateLimitStorage, type RateLimitCounters } from '../../rate-limit-counters';
import { recordByKey } from '../../search/records';

// POST /v1/reports: a teller reports a problem with a served record from the branch or agent view. Registered in
// the lookups' scope (app.ts), so the correspondent registry and API keys apply as to a lookup. The record must
// be one this instance serves (kind and key as GET /v1/ops/records answers them); the note is stored as the text
// typed. Each correspondent id has its own budget of reports per window, whatever the lookups' rate limit.

export interface ReportLimit {
  /** Reports a correspondent id may send per window (REPORTS_MAX). */
  max: number;
  timeWindowMs: number;
}

export const REPORT_LIMIT_DEFAULTS: ReportLimit = { max: 10, timeWindowMs: 60 * 60_000 };

/** What the OpenAPI document says of the operation (openapi.ts). */
export const REPORT_OPERATION = {
  path: '/v1/reports',
  operationId: 'createReport',
  summary: 'Report a problem with a record',
  description:
    "A teller's report that a served branch, agent or head office is wrong (its routing number, address, name, or it is closed), with a short note: queued for the operations desk (GET /v1/ops/reports) with the correspondent id it was sent with. The answer's `id` is the reference the teller quotes. The record is named by `kind` and `key` as GET /v1/ops/records answers them (a branch: `IN~ABHY0065001`; an agent or head office: its code); a record this instance does not serve is a 400. Each correspondent id may send a limited number of reports per window (429 after).",
  body: reportBody,
  response: reportReceipt,
} as const;

export interface ReportRoutesOptions {
  limit?: Partial<ReportLimit>;
  redis?: RedisDependency | null;
  /** The process's counters, shared by its serving threads, when there is no Redis. */
  counters?: RateLimitCounters;
}

type Counted = { isExceeded?: boolean; ttlInSeconds?: number };

/** A plugin registered in the /v1 lookups' scope: the route of POST /v1/reports. */
export async function reportRoutes(app: FastifyInstance, options: ReportRoutesOptions) {
  const limit = { ...REPORT_LIMIT_DEFAULTS, ...options.limit };
  // The counters: the lookups' rate limit registers the plugin when it is on; else here, for this scope.
  if (!app.hasDecorator('createRateLimit')) {
    await app.register(fastifyRateLimit, {
      global: false,
      ...rateLimitStorage('rpl-report-rate-limit:', options.redis?.redis, options.counters),
    });
  }
  const count = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => `report:${String(request.headers['x-fapi-financial-id'])}`,
  });
  const counted = async (request: FastifyRequest): Promise<Counted | null> => {
    try {
      const redis = options.redis;
      return (await (redis ? redis.breaker.run(() => count(request)) : count(request))) as Counted;
    } catch (error) {
      // Redis slow or down (each call bounded by its breaker): taken without counting, as the lookups are.
      request.log.warn({ err: error }, 'report rate limit not counted');
      return null;
    }
  };

  app.post('/reports', async (request, reply) => {
    const errors: ProblemParameter[] = [];
    const id = financialId.safeParse(request.headers['x-fapi-financial-id']);
    if (!id.success) errors.push({ name: 'x-fapi-financial-id', in: 'header', message: id.error.issues[0].message });
    const body = reportBody.safeParse(request.body ?? {});
    if (!body.success)
      for (const issue of body.error.issues)
        errors.push({
          name: issue.path.length > 0 ? issue.path.join('.') : 'body',
          in: 'body',
          message: issue.message,
        });
    if (!id.success) throw invalid(errors);

    // Every well-addressed report counts, well-formed or not: a loop sending junk spends its budget too.
    const spent = await counted(request);
    if (spent?.isExceeded) {
      const retryAfter = Math.max(1, spent.ttlInSeconds ?? 1);
      throw new ProblemError(
        'tooManyRequests',
        `Too many reports: ${limit.max} per correspondent per ${Math.round(limit.timeWindowMs / 60_000)} min; retry in ${retryAfter} s.`,
        [],
        { 'retry-after': String(retryAfter) },
      );
    }
    if (!body.success) throw invalid(errors);

    const { kind, key, reason, note } = body.data;
    const parts = parseRecordKey(key);
    const served = parts && recordByKey(app.searchIndex.index(request).extensionView, kind, parts);
    if (!parts || !served)
      throw invalid([{ name: 'key', in: 'body', message: `is not a ${kind} record this service serves` }]);
    const stored = await createReport(deskDbOf(app.store), {
      kind,
      key: recordKeyOf(parts),
      reason,
      note,
      correspondentId: id.data,
    });
    const answer: ReportReceipt = {
      id: stored.id,
      kind: stored.kind,
      key: stored.key,
      reason: stored.reason,
      note: stored.note,
      createdAt: stored.createdAt,
    };
    return reply.code(201).send(answer);
  });
}

const invalid = (errors: ProblemParameter[]) =>
  new ProblemError(
    'invalidRequest',
    `Invalid request: ${errors.map((e) => `${e.in} ${e.name} ${e.message}`).join('; ')}.`,
    errors,
  );
