import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readyResponse } from '../../contract';
import { startServer, type ServerProcess } from '../../testing/server-process';

// Issue 12, item 8: a Redis process of the test's own (never the shared one) is paused with SIGSTOP for 20 s
// while the real server, counting its rate limit in that Redis, is under load. Every lookup must be answered
// within 1 s, /readyz must say Redis is degraded meanwhile, and after SIGCONT counting resumes without a restart.

const PAUSE_MS = 20_000;
const CLIENTS = 8;
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

let redisDir: string;
let redisServer: ChildProcess;
let redisPort: number;
let server: ServerProcess;
const keyPrefix = `rpl-fault-${process.pid}:`;

beforeAll(async () => {
  redisDir = mkdtempSync(join(tmpdir(), 'rpl-redis-'));
  redisPort = await freePort();
  redisServer = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir],
    { stdio: 'ignore' },
  );
  const probe = new Redis(redisPort, '127.0.0.1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 100,
  });
  probe.on('error', () => {}); // refused until redis-server listens
  for (let i = 0; i < 50; i++) {
    if (
      await probe.connect().then(
        () => probe.ping(),
        () => null,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  probe.disconnect();
  server = await startServer({
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    REDIS_KEY_PREFIX: keyPrefix,
    RATE_LIMIT_MAX: '1000000',
  });
}, 90_000);

afterAll(async () => {
  redisServer?.kill('SIGCONT');
  await server?.stop();
  redisServer?.kill('SIGKILL');
  rmSync(redisDir, { recursive: true, force: true });
});

const LOOKUP = '/v1/agents?receivingCountry=MX&deliveryMode=01&pageSize=5';
const ready = async () => readyResponse.parse(await (await fetch(`${server.url}/readyz`)).json());
const counted = async () => {
  const redis = new Redis(redisPort, '127.0.0.1');
  try {
    // Every counter of this run (its own prefix), summed: it moves whenever lookups are counted.
    const keys = await redis.keys(`${keyPrefix}*`);
    return keys.length ? (await redis.mget(...keys)).reduce((sum, value) => sum + Number(value ?? 0), 0) : 0;
  } finally {
    redis.disconnect();
  }
};

it('keeps answering every lookup within 1 s while Redis is stopped, reports it degraded, recovers after SIGCONT', async () => {
  expect(server.url, server.output()).not.toBe('');
  expect(await ready()).toMatchObject({ status: 'ready', engine: 'sqlite' });
  const before = await counted();
  expect(before).toBe(0);

  let running = true;
  const latencies: number[] = [];
  const failures: string[] = [];
  const load = Array.from({ length: CLIENTS }, async (_, client) => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(server.url + LOOKUP, {
          headers: { 'x-fapi-financial-id': `AB${String(client).padStart(4, '0')}` },
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(`status ${res.status}`);
      } catch (error) {
        failures.push((error as Error).message);
      }
      latencies.push(performance.now() - started);
    }
  });

  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(await counted()).toBeGreaterThan(0);
  const pausedAt = latencies.length;
  redisServer.kill('SIGSTOP');
  const degradedSeen: string[] = [];
  const pauseEnds = Date.now() + PAUSE_MS;
  while (Date.now() < pauseEnds) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const readiness = await ready();
    degradedSeen.push(readiness.status);
  }
  const duringPause = latencies.slice(pausedAt);
  redisServer.kill('SIGCONT');

  // Counting resumes without a restart: the counter in Redis moves again and /readyz says ready.
  let recovered = false;
  const countAfterPause = await counted();
  for (let i = 0; i < 30 && !recovered; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    recovered = (await ready()).status === 'ready' && (await counted()) > countAfterPause;
  }
  running = false;
  await Promise.all(load);

  expect(failures).toEqual([]);
  expect(duringPause.length).toBeGreaterThan(100);
  expect(Math.max(...latencies)).toBeLessThan(1000);
  // After the first few seconds (three bounded failures open the breaker), every check says degraded.
  expect(
    degradedSeen.slice(2).every((status) => status === 'degraded'),
    degradedSeen.join(','),
  ).toBe(true);
  expect(recovered).toBe(true);
  console.log(
    `lookups during the ${PAUSE_MS / 1000} s pause: ${duringPause.length}, slowest ${Math.round(Math.max(...duringPause))} ms; p99 ${Math.round(duringPause.sort((a, b) => a - b)[Math.floor(duringPause.length * 0.99)])} ms; /readyz: ${degradedSeen.join(',')}`,
  );
}, 120_000);
