import { z } from 'zod';

// Answers of the operations endpoints (GET /healthz, GET /readyz); failures are problems like everywhere.
export const aliveResponse = z.object({ status: z.literal('alive') });
export const readyResponse = z.object({ status: z.literal('ready'), engine: z.string() });
