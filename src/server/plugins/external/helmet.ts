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
 * directive), so helmet runs once, at start, against a response that only records them. @fastify/helmet runs
 * helmet(options) on every request, which parses and validates the CSP directives again each time: with it the
 * reference lookups miss their throughput target (docs/benchmarks/README.md, "Security headers").
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

/**
 * Security headers that govern a document (what a page may load or embed, its browsing context group, its agent
 * cluster, old browsers' download and cross-domain policies) and mean nothing on a script, a style sheet or a JSON
 * answer. A portal asset drops them all (app.ts); an API answer keeps a CSP of its own (apiHeaderValues).
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * The CSP of an API answer (JSON: the lookups, their errors, the desk's API): nothing may be loaded or run by it,
 * and no page may frame it. OWASP's REST Security Cheat Sheet asks an API for this, HSTS, nosniff and
 * Cache-Control; the document's directives (script-src 'self' and the rest) describe a page an answer is not.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers of an API answer: the document's without the document-only ones, with the API's CSP. 5 headers
 * instead of 12 (each is validated and written on every answer, a large part of a small reference answer).
 */
export function apiHeaderValues(documentHeaders: Record<string, string>): Record<string, string> {
  const headers = { ...documentHeaders };
  for (const name of DOCUMENT_ONLY_HEADERS) delete headers[name];
  headers['content-security-policy'] = API_CONTENT_SECURITY_POLICY;
  return headers;
}

/** Whether a request target is the API's (JSON answers): /v1, but for its HTML documentation pages. */
export const isApiTarget = (url: string) => url.startsWith('/v1/') && !url.startsWith('/v1/docs');

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const documentHeaders = securityHeaderValues();
    const apiHeaders = apiHeaderValues(documentHeaders);
    const documentNames = Object.keys(documentHeaders);
    const apiNames = Object.keys(apiHeaders);
    // On the raw response, as helmet itself did: the portal's static files take the document-only ones off
    // again for hashed assets (app.ts, portalCacheHeaders), and @fastify/static 9 hands them the raw response.
    app.addHook('onRequest', (request, reply, done) => {
      const api = isApiTarget(request.url);
      const headers = api ? apiHeaders : documentHeaders;
      for (const name of api ? apiNames : documentNames) reply.raw.setHeader(name, headers[name]);
      done();
    });
  },
  { name: 'security-headers' },
);
