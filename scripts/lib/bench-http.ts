import autocannon from 'autocannon';

// One timed run of autocannon against a loopback server, rotating through the shape's paths.

/** Every lookup needs the agent correspondent id (spec §5). */
export const LOOKUP_HEADERS = { 'x-fapi-financial-id': 'BENCH1' };

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and answers with another status than the expected one. */
  errors: number;
  requests: number;
}

export interface LoadOptions {
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  expectedStatus?: number;
  connections: number;
  seconds: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: { ...LOOKUP_HEADERS, ...options.headers },
    requests: [
      {
        setupRequest: (request) => {
          request.path = options.paths[next++ % options.paths.length];
          return request;
        },
      },
    ],
  });
  const expected = String(options.expectedStatus ?? 200);
  const statusCounts =
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  const unexpected = Object.entries(statusCounts)
    .filter(([status]) => status !== expected)
    .reduce((sum, [, { count }]) => sum + Number(count), 0);
  return {
    // Total over the run's length: the per-second average leaves out partial seconds.
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + unexpected,
    requests: result.requests.total,
  };
}
