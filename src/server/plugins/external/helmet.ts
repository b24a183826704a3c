import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import fp from 'fastify-plugin';

/**
 * Security headers on every answer (portal, API, /v1/docs). One Content-Security-Policy serves the portal and
 * swagger-ui: both load their scripts as files from this origin, so script-src is 'self' and no inline
 * script runs anywhere.
 */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      // MUI/emotion (portal) and swagger-ui set styles at run time (<style> elements, style attributes).
      // A nonce would need a per-response rewrite of the static index.html and emotion's cache wired to
      // it; inline style cannot run code, so 'unsafe-inline' for styles only is the accepted trade.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // swagger-ui draws its icons as data: SVG images.
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      // No upgrade-insecure-requests: TLS ends in front of the service, and the portal must also load
      // over plain http on a teller's LAN or in the e2e suite.
    },
  },
  // CSP's frame-ancestors 'none' is the rule; X-Frame-Options SAMEORIGIN would contradict it for old browsers.
  xFrameOptions: false,
  // The API is called cross-origin only where CORS_ORIGINS allows it; this header must not veto that.
  crossOriginResourcePolicy: { policy: 'same-site' },
};

/**
 * The headers helmet sets with these options. They depend on nothing in the request (no nonce, no function
 * directive), so helmet runs once, at start, against a response that only records them. @fastify/helmet ran
 * helmet(options) on every request, which parses and validates the CSP directives again each time (~6 % of
 * the CPU of a warm search, issue #26).
 */
export function securityHeaderValues(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failed = error;
  });
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const headers = securityHeaderValues();
    const names = Object.keys(headers);
    // On the raw response, as helmet itself did: the portal's static files take the document-only ones off
    // again for hashed assets (app.ts, portalCacheHeaders), and @fastify/static 9 hands them the raw response.
    app.addHook('onRequest', (_request, reply, done) => {
      for (const name of names) reply.raw.setHeader(name, headers[name]);
      done();
    });
  },
  { name: 'security-headers' },
);
