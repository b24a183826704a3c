import { opsSession, signInBody } from '../../../../contract/ops-auth';
import { defineOpsOperation } from './ops-operation';

// Signing in and out of the operations desk, and who is signed in (plugins/app/ops-auth.ts holds the rules:
// cookie, expiry, CSRF, rate limit, audit).
export const sessionOperations = [
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/session',
    operationId: 'signIn',
    summary: 'Sign in',
    description:
      'Checks the name and password and opens a new session: the answer sets the session cookie (HttpOnly, SameSite=Strict, Secure over TLS; a new id at every sign-in) and carries the CSRF token to send in `x-csrf-token` on every state-changing call. Attempts are rate limited per account and per client address (429 with Retry-After) and audited, failed ones too. A wrong name, a wrong password and a disabled account get the same 401.',
    access: 'public',
    body: signInBody,
    response: opsSession,
    // Signing in again over a live session needs no token of that session: the sign-in replaces it.
    config: { csrfExempt: true },
    async handle({ app, request, reply, body }) {
      return app.opsAuth.signIn(request, reply, body);
    },
  }),
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/session',
    operationId: 'getSession',
    summary: 'Who is signed in',
    description:
      'The account (or ops API key) acting, its roles, and for a browser session its CSRF token and when the session ends at the latest; 401 without a session or key.',
    access: 'signedIn',
    response: opsSession,
    async handle({ app, request }) {
      return app.opsAuth.session(request);
    },
  }),
  defineOpsOperation({
    method: 'DELETE',
    path: '/v1/ops/session',
    operationId: 'signOut',
    summary: 'Sign out',
    description:
      'Ends the session on the server (its cookie no longer signs anyone in, on any instance) and clears the cookie.',
    access: 'public',
    response: null,
    async handle({ app, request, reply }) {
      await app.opsAuth.signOut(request, reply);
    },
  }),
];
