import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { FINANCIAL_ID_PATTERN } from '../../../contract';
import { opsRole } from '../../../contract/ops-auth';
import { ProblemError } from '../../problems';
import { hashApiKey, type OpsApiKey } from '../../auth/credentials';

// Who may call the lookups. Both checks are off unless configured (README.md, "Security and operations"):
// - the correspondent registry: only listed x-fapi-financial-id values are served (403 otherwise);
// - API keys: `Authorization: Bearer <key>` must be a known key (401 otherwise), and the key may only be
//   used with the correspondent ids it is bound to (403 otherwise).

export interface AccessOptions {
  /** Registered correspondent ids; undefined = registry off. */
  correspondents?: ReadonlySet<string>;
  /** SHA-256 (hex) of each API key → the correspondent ids it may use; undefined = keys off. */
  apiKeys?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Requests that are not a client's (the search index's warm-up, app.inject in this process): let through. */
  skip?: (request: FastifyRequest) => boolean;
}

/**
 * Keys are long random tokens, so an unsalted SHA-256 cannot be reversed by guessing; the file then holds
 * nothing a reader could call the API with.
 */

const correspondentId = z.string().regex(FINANCIAL_ID_PATTERN);

/** CORRESPONDENTS_FILE: one correspondent id a line; blank lines and `#` comments ignored. */
export function loadCorrespondents(file: string): Set<string> {
  const ids = new Set<string>();
  readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .forEach((line, index) => {
      const id = line.replace(/#.*/, '').trim();
      if (!id) return;
      if (!correspondentId.safeParse(id).success) {
        throw new Error(
          `${file} line ${index + 1}: "${id}" is not a correspondent id (two upper-case letters, then four upper-case letters or digits)`,
        );
      }
      ids.add(id);
    });
  return ids;
}

const apiKeysFile = z.object({
  keys: z.array(
    z
      .object({
        /** Who holds the key, for the operator; never the key itself. */
        holder: z.string().min(1),
        sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the key (npx tsx scripts/api-key.ts)'),
        /** The correspondents the key may look up for; none for a key used on the operations desk only. */
        correspondents: z.array(correspondentId).default([]),
        /** Ops roles (maker, checker, admin): the key may act on the operations desk (/v1/ops) with them. */
        opsRoles: z.array(opsRole).default([]),
        /** Who issued the key (scripts/api-key.ts: the shell user): a change they make is not approved with it. */
        issuedBy: z.string().min(1).optional(),
      })
      .refine((k) => k.correspondents.length > 0 || k.opsRoles.length > 0, 'give correspondents, opsRoles or both'),
  ),
});

function readApiKeysFile(file: string) {
  const parsed = apiKeysFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data.keys;
}

/**
 * API_KEYS_FILE: {"keys":[{"holder":"…","sha256":"<hex sha-256 of the key>","correspondents":["AB12CD"]}]}; the
 * keys of the lookups (those bound to correspondents).
 */
export function loadApiKeys(file: string): Map<string, Set<string>> {
  return new Map(
    readApiKeysFile(file)
      .filter((k) => k.correspondents.length > 0)
      .map((k) => [k.sha256, new Set(k.correspondents)]),
  );
}

/**
 * Every key of API_KEYS_FILE with its holder, ops roles ("opsRoles": ["checker"]; none for a lookup key) and
 * issuer.
 */
export function loadOpsApiKeys(file: string): Map<string, OpsApiKey> {
  return new Map(
    readApiKeysFile(file).map((k) => [k.sha256, { holder: k.holder, roles: k.opsRoles, issuedBy: k.issuedBy }]),
  );
}

function bearerKey(request: FastifyRequest): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

const CHALLENGE = 'Bearer realm="receiving-partner-lookup"';

/**
 * Registers the access check on the context it is registered in (fastify-plugin: the /v1 lookups, see
 * app.ts); health, metrics, the OpenAPI document and the portal stay open. A malformed or missing
 * correspondent id is left to validation (400).
 */
export default fp(
  async function access(app: FastifyInstance, options: AccessOptions) {
    const { correspondents, apiKeys } = options;
    if (!correspondents && !apiKeys) return;
    app.addHook('onRequest', async (request) => {
      if (options.skip?.(request)) return;
      const given = request.headers['x-fapi-financial-id'];
      const id = typeof given === 'string' && FINANCIAL_ID_PATTERN.test(given) ? given : undefined;
      if (apiKeys) {
        const key = bearerKey(request);
        if (key === undefined) {
          throw new ProblemError(
            'unauthorized',
            'An API key is required: send it as "Authorization: Bearer <key>".',
            [],
            { 'www-authenticate': CHALLENGE },
          );
        }
        const allowed = apiKeys.get(hashApiKey(key));
        if (!allowed) {
          throw new ProblemError('unauthorized', 'The API key is not valid.', [], {
            'www-authenticate': `${CHALLENGE}, error="invalid_token"`,
          });
        }
        if (id !== undefined && !allowed.has(id)) {
          throw new ProblemError('forbidden', `This API key may not be used for correspondent ${id}.`, [
            { name: 'x-fapi-financial-id', in: 'header', message: 'is not a correspondent this API key is bound to' },
          ]);
        }
      }
      if (correspondents && id !== undefined && !correspondents.has(id)) {
        throw new ProblemError('forbidden', `Correspondent ${id} is not registered with this service.`, [
          { name: 'x-fapi-financial-id', in: 'header', message: 'is not a registered correspondent id' },
        ]);
      }
    });
  },
  { name: 'access' },
);
