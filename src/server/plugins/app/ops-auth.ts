import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import * as cookie from 'cookie';
import {
  canonicalAccountName,
  CSRF_HEADER,
  keyActorName,
  type OpsRole,
  type OpsSession,
  type SignInBody,
} from '../../../contract/ops-auth';
import { provenanceOf } from '../../desk/accounts';
import type { OpsProvenance } from '../../desk/desk';
import { decoyHash, verifyPassword } from '../../desk/passwords';
import { ProblemError } from '../../problems';
import type { OpsAccountStore } from '../../store/ops-accounts';
import { hashApiKey, type OpsApiKey, type OpsAuthEvent } from '../../auth/credentials';
import { RefusedSignIns } from './refused-sign-ins';

// Who is acting on the operations desk (/v1/ops). Two ways in:
// - a browser signs in (POST /v1/ops/session) and gets a session cookie: HttpOnly, SameSite=Strict, Secure and
//   __Host- named when served over TLS. The cookie holds a random 256-bit token; the database holds only its
//   SHA-256, so any instance on the same PostgreSQL accepts it and a copy of the database signs nobody in. A
//   new token is made at every sign-in (a cookie the browser brought along is never adopted: no fixation). The
//   session ends when idle for `idleMs`, `absoluteMs` after sign-in at the latest, at sign-out, and when its
//   account is disabled or its password reset. Every POST/PUT/PATCH/DELETE of a session must carry the
//   session's CSRF token in the x-csrf-token header, and a browser's Origin / Sec-Fetch-Site must say the
//   call comes from this origin.
// - automation sends `Authorization: Bearer <key>` with an API_KEYS_FILE key that carries ops roles (no cookie,
//   so no CSRF token).
// A teller's correspondent id (x-fapi-financial-id) is not an ops credential: without a session or key the
// answer is 403 when one is sent, 401 otherwise.

/** Who acts, as the desk's engine takes it (desk.ts: OpsActor). */
export interface OpsActor {
  name: string;
  roles: OpsRole[];
  via: 'session' | 'api-key';
  /** Who created the account or issued the key, set its password, granted its roles (four eyes). */
  provenance?: OpsProvenance;
}

/** An API_KEYS_FILE entry's ops side: who holds the key and its ops roles (plugins/app/access.ts). */
export interface OpsAuthOptions {
  accounts: OpsAccountStore;
  /** A session unused this long ends (OPS_SESSION_IDLE_MINUTES). */
  idleMs: number;
  /** A session ends this long after sign-in whatever its use (OPS_SESSION_ABSOLUTE_HOURS). */
  absoluteMs: number;
  /** SHA-256 of every API_KEYS_FILE key → its holder and ops roles (none for a lookups-only key). */
  apiKeys?: ReadonlyMap<string, OpsApiKey>;
  /** Sign-in attempts per account name and per client address per window (OPS_SIGN_IN_*). */
  signInLimit: { perAccountMax: number; perAddressMax: number; windowMs: number };
  /** Writes an ops event to the audit trail (the desk's; the request log gets every event too); its row id. */
  audit?: (event: OpsAuthEvent) => Promise<number | void>;
  /** Replaces the detail of an audit row `audit` wrote: the running count of refused sign-ins. */
  reviseAudit?: (id: number, detail: Record<string, unknown>) => Promise<void>;
  /** The clock (epoch ms); tests move it to expire sessions. */
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The ops account or key acting, once the ops-auth hook has run; null when none. */
    opsActor: OpsActor | null;
    /** Why a presented session was not accepted (expired, ended), for the 401's detail. */
    opsSessionRejected: string | null;
  }
  interface FastifyInstance {
    opsAuth: OpsAuthService;
  }
}

const SECURE_COOKIE = '__Host-rpl-ops-session';
const PLAIN_COOKIE = 'rpl-ops-session';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// A session's last-seen time is written at most this often (not on every call), which is the precision of
// the idle expiry.
const TOUCH_EVERY_MS = 5000;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const isTls = (request: FastifyRequest) => request.protocol === 'https';

function bearerKey(request: FastifyRequest): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
}

function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const cookies = cookie.parse(header);
  const token = cookies[SECURE_COOKIE] ?? cookies[PLAIN_COOKIE];
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
}

function sessionCookie(request: FastifyRequest, token: string, maxAgeSeconds: number): string {
  const secure = isTls(request);
  return cookie.serialize(secure ? SECURE_COOKIE : PLAIN_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

/** Expires the session cookie in the browser (both names: the request may have come over either scheme). */
function clearSessionCookies(reply: FastifyReply) {
  reply.header('set-cookie', [
    cookie.serialize(SECURE_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: true, path: '/', maxAge: 0 }),
    cookie.serialize(PLAIN_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0 }),
  ]);
}

/** Scheme, host and port alike (URL drops a scheme's default port: http://h:80 is http://h). */
function sameOrigin(origin: string, own: string): boolean {
  try {
    const a = new URL(origin);
    const b = new URL(own);
    return a.protocol === b.protocol && a.host === b.host;
  } catch {
    return false;
  }
}

/**
 * A browser's call from another site is refused before anything else: the Origin header, when sent, must be
 * this service's own origin; Sec-Fetch-Site, when sent, must be same-origin (or none: typed by the person).
 * Calls without either (curl, automation) pass here and meet the CSRF token or the bearer key instead.
 */
function refuseCrossSite(request: FastifyRequest) {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    throw new ProblemError('forbidden', `A ${site} request may not change anything on the operations desk.`, [
      { name: 'sec-fetch-site', in: 'header', message: 'must be same-origin' },
    ]);
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !sameOrigin(origin, `${request.protocol}://${request.host}`)) {
    throw new ProblemError('forbidden', `Calls from ${origin} may not change anything on the operations desk.`, [
      { name: 'origin', in: 'header', message: 'must be this service’s own origin' },
    ]);
  }
}

export interface OpsAuthService {
  signIn(request: FastifyRequest, reply: FastifyReply, body: SignInBody): Promise<OpsSession>;
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  session(request: FastifyRequest): Promise<OpsSession>;
  /** The actor, or the 401/403 a call without one gets. */
  require(request: FastifyRequest, role?: OpsRole): OpsActor;
  record(request: FastifyRequest, event: OpsAuthEvent): Promise<void>;
  readonly now: () => number;
}

/**
 * Registered in the /v1/ops scope (app.ts): resolves `request.opsActor` on every request of the scope, and
 * refuses a state-changing call that fails the CSRF checks. The routes say which role they need
 * (`app.opsAuth.require`).
 */
export default fp(
  async function opsAuth(app: FastifyInstance, options: OpsAuthOptions) {
    const { accounts, idleMs, absoluteMs } = options;
    const now = options.now ?? Date.now;

    // The sign-in budget: per account name (a guesser spreading over addresses) and per client address (a
    // guesser spreading over names); every attempt counts, successful or not. With Redis the counters are
    // shared by every instance; without, by the serving threads of the process (rate-limit-counters.ts).
    // app.createRateLimit comes from @fastify/rate-limit (registered in app.ts).
    // The account's counter is keyed on the canonical name, the one the account lookup uses (signInBody):
    // `Victim`, ` victim` or a full-width `ｖｉｃｔｉｍ` spend victim's budget, not a budget of their own.
    const { perAccountMax, perAddressMax, windowMs } = options.signInLimit;
    const perAccount = app.createRateLimit({
      max: perAccountMax,
      timeWindow: windowMs,
      keyGenerator: (request) =>
        `ops-sign-in:account:${canonicalAccountName(String((request.body as { name?: unknown }).name ?? ''))}`,
    });
    const perAddress = app.createRateLimit({
      max: perAddressMax,
      timeWindow: windowMs,
      keyGenerator: (request) => `ops-sign-in:address:${request.ip}`,
    });

    const record = async (request: FastifyRequest, event: OpsAuthEvent) => {
      // Names, never passwords or tokens.
      request.log.info({ opsAudit: event }, 'ops event');
      try {
        await options.audit?.(event);
      } catch (error) {
        request.log.error({ err: error, opsAudit: event }, 'ops event not written to the audit trail');
        throw error;
      }
    };

    // Sign-ins the limit refuses: one audit row per account or address per window, with a count.
    const refusals = new RefusedSignIns(
      {
        record: async (event) => options.audit?.(event),
        revise: async (id, detail) => options.reviseAudit?.(id, detail),
      },
      app.log,
      now,
    );
    app.addHook('onClose', () => refusals.flush());

    const answerOf = (actor: OpsActor, csrfToken: string | null, createdAt: number | null): OpsSession => ({
      name: actor.name,
      roles: actor.roles,
      via: actor.via,
      csrfToken,
      expiresAt: createdAt === null ? null : new Date(createdAt + absoluteMs).toISOString(),
      idleTimeoutSeconds: createdAt === null ? null : Math.round(idleMs / 1000),
    });

    app.decorateRequest('opsActor', null);
    app.decorateRequest('opsSessionRejected', null);

    const service: OpsAuthService = {
      now,
      record,
      async signIn(request, reply, body) {
        const byAddress = await perAddress(request);
        const byAccount = await perAccount(request);
        const over = (r: typeof byAddress) => (!r.isAllowed && r.isExceeded ? r.ttlInSeconds : null);
        const accountWait = over(byAccount);
        const addressWait = over(byAddress);
        if (accountWait !== null || addressWait !== null) {
          const retryAfter = Math.max(1, accountWait ?? 0, addressWait ?? 0);
          // Counted in the window of the account when its budget is spent (a guesser spread over addresses
          // is one row), else in the address's (a guesser spread over names is one row).
          await refusals.refuse({
            limit: accountWait !== null ? 'account' : 'address',
            name: body.name,
            address: request.ip,
            windowEndsAt: now() + (accountWait ?? addressWait!) * 1000,
          });
          throw new ProblemError('tooManyRequests', `Too many sign-in attempts; try again in ${retryAfter} s.`, [], {
            'retry-after': String(retryAfter),
          });
        }
        const account = await accounts.account(body.name);
        const matches = await verifyPassword(body.password, account?.passwordHash ?? (await decoyHash()));
        if (!account || !matches || account.disabled) {
          await record(request, {
            actor: body.name,
            via: 'session',
            action: 'sign-in-failed',
            detail: {
              reason: !account ? 'no-such-account' : !matches ? 'wrong-password' : 'disabled',
              address: request.ip,
            },
          });
          // One answer for every cause: it does not tell which names exist.
          throw new ProblemError('unauthorized', 'The name or the password is not right, or the account is disabled.');
        }
        // A session the browser already had (this account's or another's) ends: the new one has a new token.
        const previous = sessionToken(request);
        if (previous) await accounts.deleteSession(sha256(previous));
        const token = newToken();
        const csrfToken = newToken();
        const at = now();
        await accounts.createSession({
          tokenSha256: sha256(token),
          account: account.name,
          csrfToken,
          createdAt: at,
          lastSeenAt: at,
        });
        reply.header('set-cookie', sessionCookie(request, token, Math.floor(absoluteMs / 1000)));
        reply.header('cache-control', 'no-store');
        const actor: OpsActor = { name: account.name, roles: account.roles, via: 'session' };
        await record(request, {
          actor: actor.name,
          via: 'session',
          action: 'sign-in',
          detail: { address: request.ip },
        });
        return answerOf(actor, csrfToken, at);
      },
      async signOut(request, reply) {
        const token = sessionToken(request);
        if (token) await accounts.deleteSession(sha256(token));
        clearSessionCookies(reply);
        if (request.opsActor) {
          await record(request, { actor: request.opsActor.name, via: request.opsActor.via, action: 'sign-out' });
        }
      },
      async session(request) {
        const actor = service.require(request);
        if (actor.via === 'api-key') return answerOf(actor, null, null);
        const found = await accounts.session(sha256(sessionToken(request)!));
        if (!found) throw new ProblemError('unauthorized', 'The session has ended; sign in again.');
        return answerOf(actor, found.session.csrfToken, found.session.createdAt);
      },
      require(request, role) {
        const actor = request.opsActor;
        if (!actor) {
          if (typeof request.headers['x-fapi-financial-id'] === 'string') {
            throw new ProblemError(
              'forbidden',
              "A teller's correspondent id does not give access to the operations desk; sign in with an ops account.",
            );
          }
          throw new ProblemError(
            'unauthorized',
            request.opsSessionRejected ??
              'Sign in to the operations desk, or send an ops API key as "Authorization: Bearer <key>".',
            [],
            { 'www-authenticate': 'Bearer realm="operations-desk"' },
          );
        }
        if (role && !actor.roles.includes(role)) {
          throw new ProblemError(
            'forbidden',
            `This needs the ${role} role; ${actor.name} has ${actor.roles.join(', ') || 'none'}.`,
          );
        }
        return actor;
      },
    };
    app.decorate('opsAuth', service);

    app.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const unsafe = UNSAFE_METHODS.has(request.method);
      const key = bearerKey(request);
      if (key !== undefined) {
        const entry = options.apiKeys?.get(hashApiKey(key));
        if (!entry) {
          throw new ProblemError('unauthorized', 'The API key is not valid.', [], {
            'www-authenticate': 'Bearer realm="operations-desk", error="invalid_token"',
          });
        }
        if (entry.roles.length === 0) {
          // A key for the lookups is known, but not enough here.
          throw new ProblemError(
            'forbidden',
            'This API key carries no ops roles; it cannot be used on the operations desk.',
          );
        }
        request.opsActor = {
          name: keyActorName(entry.holder),
          roles: entry.roles,
          via: 'api-key',
          provenance: { createdBy: entry.issuedBy ?? null, passwordSetBy: null, grantedBy: {} },
        };
        return;
      }
      if (unsafe) refuseCrossSite(request);
      const token = sessionToken(request);
      if (!token) return;
      const tokenSha256 = sha256(token);
      const found = await accounts.session(tokenSha256);
      if (!found) {
        request.opsSessionRejected =
          'The session has ended (signed out, or replaced by a newer sign-in); sign in again.';
        clearSessionCookies(reply);
        return;
      }
      const { session, account } = found;
      const at = now();
      const idle = at - session.lastSeenAt > idleMs;
      const over = at - session.createdAt > absoluteMs;
      if (idle || over || account.disabled) {
        await accounts.deleteSession(tokenSha256);
        request.opsSessionRejected = account.disabled
          ? 'The account is disabled.'
          : idle
            ? `The session has expired after ${Math.round(idleMs / 60000)} minutes without use; sign in again.`
            : `The session has reached its ${Math.round(absoluteMs / 3600000)}-hour limit; sign in again.`;
        clearSessionCookies(reply);
        return;
      }
      // Signing in again over a live session is allowed without its token: the sign-in replaces the session.
      if (unsafe && !(request.routeOptions.config as { csrfExempt?: boolean }).csrfExempt) {
        const given = request.headers[CSRF_HEADER];
        if (typeof given !== 'string' || !sameSecret(given, session.csrfToken)) {
          throw new ProblemError(
            'forbidden',
            `A state-changing call of a browser session needs the session's CSRF token in the ${CSRF_HEADER} header (GET /v1/ops/session gives it).`,
            [
              {
                name: CSRF_HEADER,
                in: 'header',
                message: given === undefined ? 'is missing' : 'is not this session’s token',
              },
            ],
          );
        }
      }
      if (at - session.lastSeenAt >= TOUCH_EVERY_MS) await accounts.touchSession(tokenSha256, at);
      request.opsActor = {
        name: account.name,
        roles: account.roles,
        via: 'session',
        provenance: provenanceOf(account),
      };
    });
  },
  { name: 'ops-auth' },
);
