import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readyResponse } from '../../contract';
import { connectRedis, type RedisDependency } from '../redis';
import { createTestApp, type TestApp } from '../../testing/test-app';

// Issue 12, item 8, the other fault: the Redis connection freezes (a middlebox drops it silently: no reset, no
// data ever again). Lookups must not wait on it, /readyz says degraded, and once the network is back a fresh
// connection is used — a frozen socket is never waited on until TCP gives up.

const REDIS = { host: '127.0.0.1', port: Number(process.env.TEST_REDIS_PORT ?? 6379) };

/**
 * Forwards to Redis; `freeze()` makes every open connection and every new one silent until `thaw()`, and the frozen
 * ones stay silent for good.
 */
class FreezingProxy {
  private frozen = false;
  private readonly open = new Set<{ dead: boolean; sockets: net.Socket[] }>();
  private server!: net.Server;
  port = 0;
  async start() {
    this.server = net.createServer((client) => {
      const upstream = net.connect(REDIS.port, REDIS.host);
      const connection = { dead: this.frozen, sockets: [client, upstream] };
      this.open.add(connection);
      for (const socket of connection.sockets) socket.on('error', () => {});
      client.on('data', (chunk) => {
        if (!connection.dead) upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (!connection.dead) client.write(chunk);
      });
      client.on('close', () => {
        upstream.destroy();
        this.open.delete(connection);
      });
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  freeze() {
    this.frozen = true;
    for (const connection of this.open) connection.dead = true;
  }
  thaw() {
    this.frozen = false;
  }
  async close() {
    for (const connection of this.open) for (const socket of connection.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const proxy = new FreezingProxy();
let redis: RedisDependency;
let t: TestApp;
const keyPrefix = `rpl-frozen-${process.pid}:`;
beforeAll(async () => {
  await proxy.start();
  redis = connectRedis(`redis://127.0.0.1:${proxy.port}`);
  t = await createTestApp({ rateLimit: { max: 1_000_000, timeWindowMs: 60_000, redis, keyPrefix } });
});
afterAll(async () => {
  await t.close();
  redis.redis.disconnect();
  await proxy.close();
});

const timed = async () => {
  const started = performance.now();
  const res = await t.get('/v1/receiving-countries');
  return { status: res.statusCode, ms: performance.now() - started };
};
const ready = async () => readyResponse.parse((await t.app.inject('/readyz')).json());

it('answers lookups at once over a frozen connection, reports degraded, and recovers on a fresh connection', async () => {
  for (let i = 0; i < 20 && redis.redis.status !== 'ready'; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect((await timed()).status).toBe(200);
  expect((await ready()).status).toBe('ready');

  proxy.freeze();
  const during = [];
  for (let i = 0; i < 40; i++) {
    during.push(await timed());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(during.every((answer) => answer.status === 200)).toBe(true);
  expect(Math.max(...during.map((answer) => answer.ms))).toBeLessThan(1000);
  // Once the breaker is open, a lookup costs nothing of Redis.
  expect(Math.max(...during.slice(10).map((answer) => answer.ms))).toBeLessThan(100);
  const degraded = await ready();
  expect(degraded.status).toBe('degraded');
  expect(degraded.degraded?.[0].dependency).toBe('redis');

  proxy.thaw();
  let recovered = false;
  for (let i = 0; i < 40 && !recovered; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    await timed();
    recovered = (await ready()).status === 'ready';
  }
  expect(recovered).toBe(true);
  // Counting again, on a connection that is not the frozen one.
  const [serviceKey] = await redis.redis.keys(`${keyPrefix}*service`);
  const before = Number(await redis.redis.get(serviceKey));
  await timed();
  expect(Number(await redis.redis.get(serviceKey))).toBe(before + 1);
}, 60_000);
