import type { FastifyInstance } from 'fastify';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Security headers on every answer (portal, API, /v1/docs). One Content-Security-Policy serves the portal and
 * swagger-ui: both load their scripts as files from this origin, so script-src is 'self' and no inline
 * script runs anywhere.
 */
const DOCUMENT_OPTIONS = {
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
  crossOriginResourcePolicy: { policy: 'same-site' as const },
} satisfies FastifyHelmetOptions;

/**
 * Security headers that govern a document (what a page may load or embed, its browsing context group, its agent
 * cluster, old browsers' download and cross-domain policies) and mean nothing on a script, a style sheet or a JSON
 * answer. A portal asset drops them all (app.ts); an API answer has none of them but a CSP of its own.
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
 * An API answer (JSON: the lookups, their errors, the desk's API): nothing may be loaded or run by it, and no page
 * may frame it. OWASP's REST Security Cheat Sheet asks an API for this CSP, HSTS, nosniff and Cache-Control; the
 * document's directives describe a page an answer is not.
 */
const API_OPTIONS = {
  // @fastify/helmet lays these over the document's options.
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} satisfies FastifyHelmetOptions;

/** Whether a path is the API's (JSON answers): /v1, but for its HTML documentation pages. */
const isApiPath = (url: string) => url.startsWith('/v1/') && !url.startsWith('/v1/docs');

/**
 * The route options of a not-found handler answering under /v1 (app.ts): the API's headers. Fastify's types leave
 * out `config`, which it reads there as on a route.
 */
export const API_HEADERS_CONFIG = { config: { helmet: API_OPTIONS } } as object;

/** @fastify/helmet: the document's headers on every answer, the API's on every route under /v1. */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      // Where @fastify/helmet reads a route's own options.
      if (isApiPath(route.url)) route.config = { ...route.config, helmet: API_OPTIONS } as typeof route.config;
    });
    await app.register(fastifyHelmet, DOCUMENT_OPTIONS);
  },
  { name: 'security-headers' },
);
