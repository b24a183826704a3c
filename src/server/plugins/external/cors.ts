import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import fp from 'fastify-plugin';

/**
 * CORS is closed unless CORS_ORIGINS lists origins: the portal is served from the API's own origin and
 * needs none. Listed origins get exactly the lookup headers and the echoed ones.
 */
export default fp(
  async function crossOrigin(app: FastifyInstance, options: { origins: string[] }) {
    await app.register(cors, {
      origin: options.origins.length > 0 ? options.origins : false,
      methods: ['GET', 'HEAD'],
      allowedHeaders: ['x-fapi-financial-id', 'x-correlation-id', 'x-idempotency-key', 'authorization'],
      exposedHeaders: ['x-correlation-id', 'x-idempotency-key', 'retry-after'],
      maxAge: 600,
    });
  },
  { name: 'cross-origin' },
);
