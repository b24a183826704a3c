import { z } from 'zod';

// The operations desk's accounts and sessions: who may act on the partner data (makers stage changes,
// checkers approve, reject and roll back, admins manage accounts), how a browser signs in (a session cookie
// plus a CSRF token sent back in a header) and what the account screens show. Shared by the server's ops-auth
// plugin (src/server/plugins/app/ops-auth.ts), the /v1/ops routes, `npm run ops-user` and the portal.

export const OPS_ROLES = ['maker', 'checker', 'admin'] as const;
export const opsRole = z.enum(OPS_ROLES).meta({
  description: 'maker: stages and discards changes; checker: approves, rejects, rolls back; admin: manages accounts.',
});
export type OpsRole = z.infer<typeof opsRole>;

/** The header a signed-in browser sends its session's CSRF token in, on every state-changing call. */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The one spelling of an account name that the account lookup, the sign-in limit and account creation all use:
 * compatibility forms folded (NFKC: full-width letters, ligatures, non-breaking spaces), lower case, and no
 * white space (any Unicode White_Space) at either end. Two names that reach the same account count against the
 * same sign-in budget because both go through this.
 */
export const canonicalAccountName = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKC')
    .replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');

/** An account name: what a person types at sign-in and what the audit trail names. */
export const OPS_ACCOUNT_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{1,62}$/;
export const opsAccountName = z
  .string()
  .overwrite(canonicalAccountName)
  .regex(OPS_ACCOUNT_NAME_PATTERN, 'must be 2–63 characters: lower-case letters, digits, dot, dash, underscore')
  .meta({ description: 'Lower-case letters, digits, dot, dash and underscore; 2–63 characters.', example: 'alice' });

/** How an API key acts on the desk and is named in the audit trail: `key:<holder>` (no account name holds a colon). */
export const keyActorName = (holder: string) => `key:${holder}`;

/**
 * The person behind an actor's name, for four eyes and "only the maker": an account and the API keys issued to
 * the same holder are one person (`alice`, `key:alice` and `key:Alice` are all alice).
 */
export const personOf = (actor: string) => actor.replace(/^key:/, '').normalize('NFKC').trim().toLowerCase();

export const OPS_PASSWORD_MIN_LENGTH = 12;
export const OPS_PASSWORD_MAX_LENGTH = 256;
/** A new password: long rather than complicated (NIST SP 800-63B); whitespace is kept as typed. */
export const opsPassword = z
  .string()
  .min(OPS_PASSWORD_MIN_LENGTH, `must be at least ${OPS_PASSWORD_MIN_LENGTH} characters`)
  .max(OPS_PASSWORD_MAX_LENGTH, `must be at most ${OPS_PASSWORD_MAX_LENGTH} characters`);

const roles = z.array(opsRole).min(1, 'at least one role').max(OPS_ROLES.length);

export const opsAccount = z.object({
  name: opsAccountName,
  roles,
  disabled: z.boolean(),
  createdAt: z.string().meta({ description: 'ISO 8601 time (UTC).' }),
  updatedAt: z.string().meta({ description: 'ISO 8601 time (UTC).' }),
});
export type OpsAccount = z.infer<typeof opsAccount>;
export const opsAccountList = z.object({ data: z.array(opsAccount) });

/** POST /v1/ops/session: sign in. The password is checked, never stored or echoed. */
export const signInBody = z.strictObject({
  // At sign-in any string up to the limits is compared (a wrong name is just a failed sign-in, not a 400
  // that tells which accounts exist).
  name: z.string().overwrite(canonicalAccountName).min(1).max(63),
  password: z.string().min(1).max(OPS_PASSWORD_MAX_LENGTH),
});
export type SignInBody = z.infer<typeof signInBody>;

/** Who is signed in (GET /v1/ops/session, and the answer of a sign-in). */
export const opsSession = z.object({
  name: z.string(),
  roles: z.array(opsRole),
  via: z.enum(['session', 'api-key']),
  csrfToken: z
    .string()
    .nullable()
    .meta({
      description: `Send it in the ${CSRF_HEADER} header on every POST, PUT, PATCH and DELETE of this session; null for an API key (no cookie, no CSRF).`,
    }),
  expiresAt: z
    .string()
    .nullable()
    .meta({ description: 'When the session ends at the latest (absolute expiry); it ends sooner when idle.' }),
  idleTimeoutSeconds: z.number().int().nullable(),
});
export type OpsSession = z.infer<typeof opsSession>;

/** POST /v1/ops/accounts (admin). */
export const createAccountBody = z.strictObject({ name: opsAccountName, roles, password: opsPassword });
export type CreateAccountBody = z.infer<typeof createAccountBody>;

/** PATCH /v1/ops/accounts/{name} (admin): any of roles, disabled, a new password. */
export const updateAccountBody = z
  .strictObject({ roles: roles.optional(), disabled: z.boolean().optional(), password: opsPassword.optional() })
  .refine((body) => Object.keys(body).length > 0, 'give roles, disabled or password');
export type UpdateAccountBody = z.infer<typeof updateAccountBody>;

export const accountPathParams = z.strictObject({ name: opsAccountName });
