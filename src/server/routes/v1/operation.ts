import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../../contract';
import { syncHook } from '../../plugins/sync-hook';
import { COMPRESS_THRESHOLD_BYTES } from '../../plugins/external/compress';
import { AnswerCompression, LoadGauge, type Encoding } from '../../search/answer-compression';
import { BodyPool } from '../../search/body-pool';
import type { SearchIndex } from '../../search/search-index';
import { parseRequest, type Semantic } from '../../validation';

// One declaration per operation: its path, what the API reference says of it, its query (and path) schema, the
// semantic rules its parameters must meet, its answer's schema and its handler. The Fastify route (below) and the
// OpenAPI entry (openapi.ts) are both made from it, and the tests take the operations from the same list
// (routes/v1/index.ts).

export type OperationTag = 'Lookups' | 'Reference' | 'Extensions';

/** What a handler is given: the parsed query and path parameters, and the app, request and reply. */
export interface OperationContext<Q, P> {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  query: Q;
  params: P;
  /** The search index this request reads (the data version being served), named in `x-data-version` (dataVersion). */
  searchIndex: () => SearchIndex;
  /** A buffer of `length` bytes from the app's pool, for a search answer written by the index. */
  take: (length: number) => Buffer;
  /**
   * From what size a search answer is to be written as gzip by the index itself (search/gzip-documents.ts): the
   * request prefers gzip; undefined when it does not (the answer is then compressed here as it accepts). A
   * function, asked by the searches alone (it weighs the thread's load and the request's Accept-Encoding).
   */
  gzipFrom: () => number | undefined;
  /**
   * Sends a pooled buffer as the JSON answer (`encoding`: already encoded so); it goes back to the pool once the
   * response has closed.
   */
  sendPooled: (body: Buffer, encoding?: Encoding) => FastifyReply;
  /**
   * Sends JSON bytes that outlive the request (a reference answer): compressed as the request accepts, each
   * compressed form kept in `encoded` for the next request that accepts it.
   */
  sendJson: (body: Buffer, encoded: Partial<Record<Encoding, Buffer>>) => FastifyReply;
}

export interface Operation<
  Path extends string = string,
  Q extends z.ZodObject = z.ZodObject,
  R extends z.ZodType = z.ZodType,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
> {
  /** The path as the OpenAPI document writes it, parameters in braces: `/v1/codes/{code}`. */
  path: Path;
  /** The OpenAPI operationId: the method name a generated client gives the operation; unique in the document. */
  operationId: string;
  summary: string;
  description: string;
  tag: OperationTag;
  /** The query parameters (a strict object: an unknown one is a 400). */
  query: Q;
  /** Whether the OpenAPI entry lists the query; false for the operations whose query is empty (no parameters). */
  documentQuery?: boolean;
  /** The path parameters, for the operations that take one; checked together with headers and query. */
  params?: P;
  /** Checks of meaning against the served reference data (validation.ts), run on the well-formed parameters. */
  rules?: Semantic<Partial<z.output<Q>>>;
  /** The 200 answer's schema (documentation and the tests; the handler's answer is not parsed again). */
  response: R;
  /** Partner data: `cache-control: no-store` on every answer, errors included (set before anything else). */
  partnerData?: boolean;
  /** The handler names the data version its answer came from in `x-data-version` (searchIndex, below). */
  dataVersion?: boolean;
  /** A reference list: the answer carries an ETag of the data version, and If-None-Match naming it gets a 304. */
  etag?: boolean;
  /** Statuses besides 200/400/401/403/414/429/500/503 this operation answers (documented). */
  errors?: { status: 404; description: string }[];
  handle(
    context: OperationContext<z.output<Q>, P extends z.ZodObject ? z.output<P> : undefined>,
  ): Promise<z.input<R> | FastifyReply>;
}

/** Declares an operation; the literal path is kept in its type, so the tests can key a table by operation. */
export const defineOperation = <
  const Path extends `/v1/${string}`,
  Q extends z.ZodObject,
  R extends z.ZodType,
  P extends z.ZodObject | undefined = undefined,
>(
  operation: Operation<Path, Q, R, P>,
) => operation;

/** What an operation answered from the search index declares: partner data, and the data version it came from. */
export const FROM_INDEX = { partnerData: true, dataVersion: true } as const;

/** A search's query with its paging filled in: page 1 of DEFAULT_PAGE_SIZE rows unless asked. */
export const withPaging = <Q extends { pageNumber?: number; pageSize?: number }>(query: Q) => ({
  ...query,
  pageNumber: query.pageNumber ?? 1,
  pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE,
});

// Partner data (agents, networks, branches, with addresses and phone numbers) is never stored by a browser or
// a proxy.
const noStore = syncHook((_request, reply) => {
  reply.header('cache-control', 'no-store');
});

const JSON_TYPE = 'application/json; charset=utf-8';

interface SendOptions {
  pooled?: boolean;
  encoded?: Partial<Record<Encoding, Buffer>>;
  encoding?: Encoding;
}

/** The Fastify route of `/v1/codes/{code}` under the `/v1` prefix: `/codes/:code`. */
const routeUrl = (path: string) => path.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1');

/**
 * A plugin (registered under the `/v1` prefix) that routes every operation of the list.
 *
 * Every answer of an operation is compressed here, not by @fastify/compress (`compress: false`: the plugin adds no
 * hooks to these routes): the search answers are pooled bytes, or to a busy thread the gzip the index writes
 * (answer-compression.ts), the reference answers keep their compressed forms for the data set, and the other
 * answers (objects) are serialised and compressed like them. Error answers (problem+json, a few hundred bytes)
 * go out as they are: each hook costs every request, compressed or not.
 */
export function operationRoutes(operations: readonly Operation[]) {
  return async function routes(app: FastifyInstance) {
    // Search answers are written into pooled buffers, each taken back when its response has closed.
    const bodies = new BodyPool();
    const load = new LoadGauge();
    app.addHook('onClose', async () => load.stop());
    const compression = new AnswerCompression(() => load.busy);

    /**
     * Sends `body` as the JSON answer, compressed when the request accepts it. `pooled`: the body is the pool's,
     * given back after; `encoded`: its compressed forms kept for later answers (a reference answer's), filled in
     * here; `encoding`: the body is already encoded so (a search answer written as gzip by the index).
     */
    const send = (
      request: FastifyRequest,
      reply: FastifyReply,
      body: Buffer,
      { pooled = false, encoded, encoding: given }: SendOptions = {},
    ) => {
      // The answer varies with Accept-Encoding, whether this one is compressed or not.
      reply.header('vary', 'accept-encoding');
      const encoding = given ?? compression.encodingFor(request.headers['accept-encoding'], body.length);
      let bytes = body;
      if (encoding !== undefined && given === undefined) {
        // A reference answer's: a copy of its own size, kept as long as the data set serves.
        if (encoded) bytes = encoded[encoding] ??= Buffer.from(compression.compress(body, encoding));
        else {
          bytes = compression.compress(body, encoding);
          if (pooled) bodies.give(body);
          pooled = false;
        }
      }
      if (pooled) reply.raw.once('close', () => bodies.give(body));
      if (encoding !== undefined) reply.header('content-encoding', encoding);
      return reply.type(JSON_TYPE).send(bytes);
    };

    for (const operation of operations) {
      app.get(
        routeUrl(operation.path),
        { compress: false, ...(operation.partnerData ? { onRequest: noStore } : {}) },
        async (request: FastifyRequest, reply: FastifyReply) => {
          const { query, params } = parseRequest(request, operation, app.reference);
          const answer = await operation.handle({
            app,
            request,
            reply,
            query,
            params,
            searchIndex: () => {
              const index = app.searchIndex.index(request);
              reply.header('x-data-version', index.version);
              return index;
            },
            take: bodies.take,
            // A function, not a getter: an object literal with an accessor kept every request's objects (request,
            // reply, headers, answer) alive through the young generation's collections into the old one, where
            // they stayed until a full collection: the serving threads' memory grew and the scavenges slowed.
            gzipFrom: () =>
              compression.searchAnswerAsGzip(request.headers['accept-encoding']) ? COMPRESS_THRESHOLD_BYTES : undefined,
            sendPooled: (body, encoding) => send(request, reply, body, { pooled: true, encoding }),
            sendJson: (body, encoded) => send(request, reply, body, { encoded }),
          });
          // A handler that sent its answer returned the reply, which is a thenable: awaited, it gives undefined.
          if (reply.sent) return reply;
          return send(request, reply, Buffer.from(JSON.stringify(answer)));
        },
      );
    }
  };
}
