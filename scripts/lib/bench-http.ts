import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One timed run of wrk (C, epoll) against a loopback server, rotating through the shape's paths. A JavaScript
// generator (autocannon) tops out near 3,400 req/s on the 2-core machine whatever the server; wrk reaches
// 15,000–49,000 req/s against a bare node:http server there, so the server, not the generator, is measured.

/** Every lookup needs the agent correspondent id (spec §5). */
export const LOOKUP_HEADERS = { 'x-fapi-financial-id': 'BENCH1' };

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers with another status than the expected one (wrk: any status ≥ 400 when 2xx/3xx is expected). */
  non2xx: number;
  /** Connection, read, write errors and timeouts. */
  socketErrors: number;
  /** non2xx + socketErrors. */
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
  /** wrk threads (default 2: the machine's cores). */
  threads?: number;
  /**
   * A pause (ms) each connection takes after an answer before its next request, like a teller reading it
   * (wrk's delay()): a steady load below the machine's saturation. Unset: the closed loop at full speed.
   */
  thinkMs?: number;
}

interface WrkExit {
  code: number | null;
  out: string;
  err: string;
}

/** Starts wrk in a child process of this one, and collects what it prints. */
function startWrk(args: string[], env: Record<string, string>): Promise<WrkExit> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', (error) =>
      reject(new Error(`wrk could not start (${error.message}); install it: apt-get install wrk`)),
    );
    child.once('close', (code) => resolve({ code, out, err }));
  });
}

/**
 * The Lua script wrk runs in each of its threads: the requests are formatted once (wrk.format, with the -H
 * headers), then sent in turn, each thread starting at another offset so the threads do not ask the same
 * answer at the same time. Each connection sends its next request when the last answer is read (closed loop).
 * done() prints one JSON line the caller parses.
 */
const SCRIPT = `
local counter = 0
function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
end
function init(args)
  requests = {}
  for line in io.lines(os.getenv("BENCH_PATHS")) do
    if #line > 0 then requests[#requests + 1] = wrk.format("GET", line) end
  end
  position = ((offset or 0) * 7919) % #requests
end
function request()
  position = position + 1
  if position > #requests then position = 1 end
  return requests[position]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\nBENCH {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;

interface WrkSummary {
  requests: number;
  durationUs: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50: number;
  p99: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const script = join(dir, 'rotate.lua');
    const pathsFile = join(dir, 'paths.txt');
    writeFileSync(
      script,
      options.thinkMs ? `${SCRIPT}\nfunction delay()\n  return ${Math.round(options.thinkMs)}\nend\n` : SCRIPT,
    );
    writeFileSync(pathsFile, `${options.paths.join('\n')}\n`);
    const headers = Object.entries({ ...LOOKUP_HEADERS, ...options.headers }).flatMap(([name, value]) => [
      '-H',
      `${name}: ${value}`,
    ]);
    const args = [
      `-t${options.threads ?? 2}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--timeout',
      '10s',
      ...headers,
      '-s',
      script,
      options.url,
    ];
    const env = { BENCH_PATHS: pathsFile };
    const exit = await startWrk(args, env);
    if (exit.code !== 0) throw new Error(`wrk exited ${exit.code}: ${exit.err}${exit.out}`);
    const output = exit.out;
    const line = /^BENCH (\{.*\})$/m.exec(output);
    if (!line) throw new Error(`wrk printed no summary: ${output}`);
    const s = JSON.parse(line[1]) as WrkSummary;
    // wrk counts a status ≥ 400 as an error; a shape expecting 304 gets 304s, which it does not count.
    const socketErrors = s.connect + s.read + s.write + s.timeout;
    return {
      requestsPerSecond: s.requests / (s.durationUs / 1e6),
      p50: s.p50 / 1000,
      p99: s.p99 / 1000,
      non2xx: s.status,
      socketErrors,
      errors: s.status + socketErrors,
      requests: s.requests,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
