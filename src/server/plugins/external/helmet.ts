import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Security headers on every answer (portal, API, /v1/docs). One Content-Security-Policy serves the portal and
 * swagger-ui: both load their scripts as files from this origin, so script-src is 'self' and no inline
 * script runs anywhere.
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    await app.register(helmet, {
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
    });
  },
  { name: 'security-headers' },
);
