import { z } from 'zod';

// Answers of the operations endpoints (GET /healthz, GET /readyz); failures are problems like everywhere.
export const aliveResponse = z.object({ status: z.literal('alive') });
/** Ready, or ready but degraded: lookups are served, an optional dependency (Redis) is not answering. */
export const readyResponse = z.object({
  status: z.enum(['ready', 'degraded']),
  engine: z.string(),
  degraded: z.array(z.object({ dependency: z.string(), detail: z.string() })).optional(),
  searchIndex: z
    .object({
      dataVersion: z.string(),
      branches: z.number().int(),
      agents: z.number().int(),
      buildMs: z.number().int(),
      from: z.enum(['snapshot', 'store']).meta({
        description:
          "'snapshot': read at start from the index snapshot kept for this data version (INDEX_SNAPSHOTS); 'store': built from the rows.",
      }),
      bytes: z.record(z.string(), z.number().int()),
    })
    .meta({
      description:
        'The in-memory search index answering the agent list and bank branches: its data version, rows, last build time and size by part.',
    }),
  thread: z.number().int().meta({
    description:
      'The serving thread that answered (0: the main thread). With SERVING_THREADS=n, n threads answer on the port from one shared index; each reports itself ready only while it serves.',
  }),
});
