import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ACCOUNT_TRANSFER_TO_OTHER_BANK,
  DISTRICT_COUNTRIES,
  countryProfile,
  lookupHeaders,
  type ProblemParameter,
} from '../contract';
import { deliveryModeCodeOf } from '../contract/delivery-modes';
import { ProblemError } from './problems';
import type { ReferenceCache } from './reference-cache';

// Request validation: the contract's schemas check the form of every header and query parameter, then the
// reference data checks meaning (a served country, a mode offered there, a state of that country). All
// problems are collected and reported at once in one 400.

export function issuesToParameters(issues: z.core.$ZodIssue[], location: ProblemParameter['in']): ProblemParameter[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((name) => ({ name, in: location, message: 'is not a parameter of this operation' }));
    }
    return [{ name: String(issue.path[0] ?? ''), in: location, message: issue.message }];
  });
}

/** The lookup headers every /v1 lookup takes (spec §5). */
export function headerProblems(request: FastifyRequest): ProblemParameter[] {
  const parsed = lookupHeaders.safeParse({
    'x-fapi-financial-id': request.headers['x-fapi-financial-id'],
    'x-correlation-id': request.headers['x-correlation-id'],
    'x-idempotency-key': request.headers['x-idempotency-key'],
  });
  return parsed.success ? [] : issuesToParameters(parsed.error.issues, 'header');
}

export type Semantic<T> = (query: T, reference: ReferenceCache) => ProblemParameter[];

const invalidRequest = (problems: ProblemParameter[]) =>
  new ProblemError(
    'invalidRequest',
    `The request has ${problems.length} invalid parameter${problems.length === 1 ? '' : 's'}: ${problems.map((p) => p.name).join(', ')}.`,
    problems,
  );

/**
 * Parses the query with the operation's schema and checks headers; then runs the semantic checks on the
 * parameters that parsed. Throws one ProblemError naming every invalid parameter and header.
 */
function parseQuery<S extends z.ZodType>(
  request: FastifyRequest,
  schema: S,
  reference: ReferenceCache,
  semantic?: Semantic<Partial<z.output<S>>>,
): z.output<S> {
  const problems = headerProblems(request);
  const parsed = schema.safeParse(request.query ?? {});
  if (parsed.success) {
    problems.push(...(semantic?.(parsed.data as Partial<z.output<S>>, reference) ?? []));
    if (problems.length === 0) return parsed.data;
  } else {
    const queryProblems = issuesToParameters(parsed.error.issues, 'query');
    problems.push(...queryProblems);
    // Still check the meaning of the parameters that were well-formed, so one answer names everything.
    const invalid = new Set(queryProblems.map((p) => p.name));
    const wellFormed = wellFormedParameters(schema, request.query, invalid);
    problems.push(...(semantic?.(wellFormed as Partial<z.output<S>>, reference) ?? []));
  }
  throw invalidRequest(problems);
}

/**
 * An operation's request (routes/v1/operation.ts): path parameters, headers, query and the semantic rules, all
 * checked before one ProblemError names every invalid one (path parameters first).
 */
export function parseRequest<Q extends z.ZodObject, P extends z.ZodObject | undefined>(
  request: FastifyRequest,
  operation: { query: Q; params?: P; rules?: Semantic<Partial<z.output<Q>>> },
  reference: ReferenceCache,
): { query: z.output<Q>; params: P extends z.ZodObject ? z.output<P> : undefined } {
  type Params = P extends z.ZodObject ? z.output<P> : undefined;
  if (!operation.params) {
    return { query: parseQuery(request, operation.query, reference, operation.rules), params: undefined as Params };
  }
  const params = operation.params.safeParse(request.params);
  let query: z.output<Q>;
  try {
    query = parseQuery(request, operation.query, reference, operation.rules);
  } catch (error) {
    if (!(error instanceof ProblemError) || params.success) throw error;
    throw invalidRequest([...issuesToParameters(params.error.issues, 'path'), ...error.errors]);
  }
  if (!params.success) throw invalidRequest(issuesToParameters(params.error.issues, 'path'));
  return { query, params: params.data as Params };
}

function wellFormedParameters(schema: z.ZodType, query: unknown, invalid: Set<string>): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const result: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    if (invalid.has(name)) continue;
    const value = (query as Record<string, unknown> | undefined)?.[name];
    const parsed = field.safeParse(value);
    if (parsed.success && parsed.data !== undefined) result[name] = parsed.data;
  }
  return result;
}

const countryProblem = (code: string | undefined, reference: ReferenceCache): ProblemParameter[] =>
  code !== undefined && !reference.country(code)
    ? [
        {
          name: 'receivingCountry',
          in: 'query',
          message: `"${code}" is not a served receiving country; see GET /v1/receiving-countries`,
        },
      ]
    : [];

/** receivingCountry is served; deliveryMode is in the catalog and offered for that country (India: 04 only). */
export const countryAndMode: Semantic<{ receivingCountry?: string; deliveryMode?: number }> = (query, reference) => {
  const problems = countryProblem(query.receivingCountry, reference);
  if (query.deliveryMode === undefined) return problems;
  if (!reference.deliveryMode(query.deliveryMode)) {
    problems.push({
      name: 'deliveryMode',
      in: 'query',
      message: `${query.deliveryMode} is not a delivery mode; see GET /v1/types?filter=delivery-modes`,
    });
    return problems;
  }
  const country = query.receivingCountry ? reference.country(query.receivingCountry) : undefined;
  if (country && !country.deliveryModes.includes(query.deliveryMode)) {
    problems.push({
      name: 'deliveryMode',
      in: 'query',
      message: `delivery mode ${deliveryModeCodeOf(query.deliveryMode)} is not offered for ${country.code}; offered: ${country.deliveryModes.map(deliveryModeCodeOf).join(', ')}`,
    });
  }
  return problems;
};

export const countryOnly: Semantic<{ receivingCountry?: string }> = (query, reference) =>
  countryProblem(query.receivingCountry, reference);

/** A state must be one of the receiving country's (GET /v1/states). */
export const stateOfCountry: Semantic<{ receivingCountry?: string; state?: string }> = (query, reference) =>
  query.state !== undefined &&
  query.receivingCountry &&
  reference.country(query.receivingCountry) &&
  !reference.hasState(query.receivingCountry, query.state)
    ? [
        {
          name: 'state',
          in: 'query',
          message: `"${query.state}" is not a state of ${query.receivingCountry}; see GET /v1/states?receivingCountry=${query.receivingCountry}`,
        },
      ]
    : [];

/** Bank branches serve delivery mode 04; district applies to Bangladesh only (spec §4.3; countries.ts). */
export const branchRules: Semantic<{ receivingCountry?: string; deliveryMode?: number; district?: string }> = (
  query,
  reference,
) => {
  const problems = countryAndMode(query, reference);
  if (
    query.deliveryMode !== undefined &&
    query.deliveryMode !== ACCOUNT_TRANSFER_TO_OTHER_BANK &&
    !problems.some((p) => p.name === 'deliveryMode')
  ) {
    problems.push({
      name: 'deliveryMode',
      in: 'query',
      message: 'bank branches serve delivery mode 04 (Account Transfer to Other Bank) only',
    });
  }
  if (
    query.district !== undefined &&
    query.receivingCountry &&
    !countryProfile(query.receivingCountry).districtFilter
  ) {
    problems.push({ name: 'district', in: 'query', message: DISTRICT_MESSAGE(reference) });
  }
  return problems;
};

/** "applies only when the receiving country is Bangladesh (BD)": the countries whose profile has the filter. */
const DISTRICT_MESSAGE = (reference: ReferenceCache) =>
  `applies only when the receiving country is ${DISTRICT_COUNTRIES.map((c) => `${reference.country(c)?.name ?? c} (${c})`).join(' or ')}`;

export const all =
  <T>(...checks: Semantic<T>[]): Semantic<T> =>
  (query, reference) =>
    checks.flatMap((check) => check(query, reference));
