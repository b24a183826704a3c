import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildOpenApiDocument } from '../server/openapi';

// Holds the live server to its OpenAPI document: every answer the tests see (the test app's inject, and the
// property suite's real HTTP requests) must have a status the document declares for its operation, declare
// every header of the project's own it carries (and carry the ones declared required), and have a body that
// matches the declared schema. Schemas are compiled once per process, on first use.

/** The headers the project sets; each one an answer carries must be declared for that operation and status. */
export const OWN_HEADERS = [
  'x-correlation-id',
  'x-idempotency-key',
  'x-data-version',
  'retry-after',
  'etag',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
] as const;

/** What the check needs of an answer, however it was received. */
export interface SeenAnswer {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The body as received (compressed when content-encoding says so). */
  body: Buffer;
}

interface JsonObject {
  [key: string]: unknown;
}
interface DocumentedResponse {
  headers?: Record<string, JsonObject>;
  content?: Record<string, { schema: unknown }>;
}
interface DocumentedOperation {
  operationId: string;
  responses: Record<string, DocumentedResponse>;
}
interface Route {
  method: string;
  path: string;
  pattern: RegExp;
  operation: DocumentedOperation;
}

const DOCUMENT_ID = 'https://receiving-partner-lookup.invalid/openapi.json';

class DocumentCheck {
  readonly document = buildOpenApiDocument() as unknown as JsonObject & {
    paths: Record<string, Record<string, DocumentedOperation>>;
    components: { schemas: JsonObject; headers: Record<string, JsonObject> };
  };
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: Route[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormatsPlugin(this.ajv);
    const int32 = (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31;
    this.ajv.addFormat('int32', { type: 'number', validate: int32 });
    this.ajv.addFormat('int64', { type: 'number', validate: Number.isInteger });
    this.ajv.addFormat('binary', true);
    // The component schemas, under an id the response schemas' $refs are pointed at.
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: this.document.components.schemas } });
    for (const [path, item] of Object.entries(this.document.paths)) {
      const source = path
        .split(/(\{\w+\})/)
        .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      for (const [method, operation] of Object.entries(item)) {
        this.routes.push({ method: method.toUpperCase(), path, pattern: new RegExp(`^${source}$`), operation });
      }
    }
    // A static path wins over a template, as in the router (/v1/banks/browse before /v1/banks/branches/{branchId}).
    this.routes.sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  }

  compile(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      // The document's $refs (#/components/…) are relative to the document: point them at its id.
      const pointed = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${DOCUMENT_ID}#/`));
      validate = this.ajv.compile(pointed as object);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private resolve(value: JsonObject): JsonObject {
    const ref = value.$ref;
    if (typeof ref !== 'string') return value;
    const name = ref.replace('#/components/headers/', '');
    return this.document.components.headers[name];
  }

  /** The operation an answer is of, or undefined for paths and methods the document does not describe. */
  private routeOf(method: string, url: string): Route | undefined {
    const path = url.split('?')[0];
    const asked = method === 'HEAD' ? 'GET' : method;
    return this.routes.find((route) => route.method === asked && route.pattern.test(path));
  }

  violations(answer: SeenAnswer): string[] {
    const route = this.routeOf(answer.method.toUpperCase(), answer.url);
    if (!route) return [];
    const { operation } = route;
    const where = `${operation.operationId} (${answer.method} ${answer.url.slice(0, 200)}) answered ${answer.status}`;
    const declared = operation.responses[String(answer.status)] ?? operation.responses[`${String(answer.status)[0]}XX`];
    if (!declared) return [`${where}: the status is not declared`];
    const problems: string[] = [];

    const declaredHeaders = new Map(
      Object.entries(declared.headers ?? {}).map(([name, header]) => [name.toLowerCase(), this.resolve(header)]),
    );
    for (const name of OWN_HEADERS) {
      const value = answer.headers[name];
      if (value === undefined) continue;
      const header = declaredHeaders.get(name);
      if (!header) {
        problems.push(`${where}: header ${name} is sent but not declared`);
        continue;
      }
      const schema = header.schema as JsonObject;
      const text = String(value);
      const typed = schema.type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;
      const validate = this.compile(`header ${name} ${JSON.stringify(schema)}`, schema);
      if (!validate(typed)) problems.push(`${where}: header ${name}: ${JSON.stringify(text)} ${errorsOf(validate)}`);
    }
    for (const [name, header] of declaredHeaders) {
      if (header.required && answer.headers[name] === undefined) {
        problems.push(`${where}: required header ${name} is missing`);
      }
    }

    if (answer.method.toUpperCase() === 'HEAD') return problems;
    const body = decoded(answer.body, answer.headers['content-encoding']);
    if (!declared.content) {
      if (body.length > 0) problems.push(`${where}: a body is sent where none is declared`);
      return problems;
    }
    const mediaType = String(answer.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const media = declared.content[mediaType];
    if (!media) {
      problems.push(
        `${where}: media type "${mediaType}" is not declared (${Object.keys(declared.content).join(', ')})`,
      );
      return problems;
    }
    if (!/[/+]json$/.test(mediaType)) return problems;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return [...problems, `${where}: the body is not JSON: ${body.toString('utf8').slice(0, 200)}`];
    }
    const validate = this.compile(`${route.method} ${route.path} ${answer.status} ${mediaType}`, media.schema);
    if (!validate(value)) {
      problems.push(`${where}: the body does not match the schema: ${errorsOf(validate)}`);
    }
    return problems;
  }
}

/** Each error with where it is and what it is about (the property an object must not have, the allowed values). */
const errorsOf = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .slice(0, 10)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('; ');

function decoded(body: Buffer, encoding: SeenAnswer['headers'][string]): Buffer {
  if (body.length === 0) return body;
  switch (String(encoding ?? '').toLowerCase()) {
    case 'gzip':
      return gunzipSync(body);
    case 'br':
      return brotliDecompressSync(body);
    case 'deflate':
      return inflateSync(body);
    default:
      return body;
  }
}

let check: DocumentCheck | undefined;
const documentCheck = () => (check ??= new DocumentCheck());

/** A schema of the document (a parameter's, a header's), compiled as the answers' are: $refs into its components. */
export const documentSchemaValidator = (schema: unknown) =>
  documentCheck().compile(`schema ${JSON.stringify(schema)}`, schema);

/** Throws, naming every violation, when the answer does not hold to the document. */
export function expectDocumented(answer: SeenAnswer): void {
  const problems = documentCheck().violations(answer);
  if (problems.length > 0) throw new Error(`The answer breaks the OpenAPI document:\n${problems.join('\n')}`);
}

/**
 * Every answer of `app.inject` (the promise form the tests use) is checked against the document before the
 * test sees it: a violation rejects the request with the list.
 */
export function checkEveryAnswer(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions | string) => {
    const response = await inject(options);
    const method = typeof options === 'string' ? 'GET' : (options.method ?? 'GET');
    const target = typeof options === 'string' ? options : (options.url ?? options.path ?? '/');
    expectDocumented({
      method,
      url: typeof target === 'string' ? target : (target.pathname ?? '/'),
      status: response.statusCode,
      headers: response.headers,
      body: response.rawPayload,
    });
    return response;
  };
  const original = app.inject;
  app.inject = function (this: FastifyInstance, ...args: unknown[]) {
    // The chain form (no options) and the callback form go through unchecked; the tests use the promise form.
    if (args.length !== 1) return (original as (...a: unknown[]) => unknown).apply(app, args);
    return checked(args[0] as InjectOptions | string);
  } as FastifyInstance['inject'];
}
