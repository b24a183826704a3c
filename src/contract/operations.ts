import { z } from 'zod';

// Answers of the operations endpoints (GET /healthz, GET /readyz); failures are problems like everywhere.
export const aliveResponse = z.object({ status: z.literal('alive') });
/** Ready, or ready but degraded: lookups are served, an optional dependency (Redis) is not answering. */
export const readyResponse = z.object({
  status: z.enum(['ready', 'degraded']),
  engine: z.string(),
  degraded: z.array(z.object({ dependency: z.string(), detail: z.string() })).optional(),
});
