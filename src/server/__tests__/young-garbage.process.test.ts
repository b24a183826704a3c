import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GCProfiler } from 'node:v8';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, LOOKUP_HEADERS, type TestApp } from '../../testing/test-app';

// What a lookup allocates dies young. A request's objects (request, reply, headers, the answer's
// buffers) live for the request alone; while nothing long-lived points at them, the young generation's collection
// (a scavenge) frees them. When something does, they are moved to the old generation and stay there until a full
// collection: a handler's context made as an object literal with a getter did that to every lookup (17–22 % of
// what a lookup allocated was promoted; each serving thread's old space grew to 130–150 MB under load, and the
// scavenges took three to four times as long).
//
// Measured here over real HTTP, in this process (the app listens on a port; the client is Node's own): the bytes
// the old space gained in the scavenges (v8.GCProfiler: its used size after minus before each one), per answer.
// With the getter: 3.9–4.1 kB an answer (two runs); without: 367–385 bytes (four runs; the client's own objects
// included).

/** Promoted bytes an answer may cost on average: three times what was measured, a quarter of the getter's. */
const MAX_PROMOTED_PER_ANSWER = 1200;
const ANSWERS = 6000;
const WINDOWS = 3;
const CONCURRENCY = 16;

let api: TestApp;
let base: string;

beforeAll(async () => {
  api = await createTestApp();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await api?.close();
});

/** Distinct lookups of every kind the tellers make: branch searches, agent searches, reference lookups. */
function lookups(): string[] {
  const office = 'receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN';
  const banks = ['state', 'bank', 'india', 'baroda', 'canara', 'union', 'punjab', 'central'];
  const places = ['road', 'nagar', 'main', 'market', 'station', 'bazar', 'colony', 'street'];
  const paths: string[] = [];
  for (const bankName of banks)
    for (const branchLocation of places)
      for (const pageNumber of [1, 2])
        paths.push(
          `/v1/banks/branches?${office}&bankName=${bankName}&branchLocation=${branchLocation}&pageNumber=${pageNumber}`,
        );
  for (const pageNumber of [1, 2, 3])
    paths.push(`/v1/agents?receivingCountry=MX&deliveryMode=01&pageNumber=${pageNumber}`);
  paths.push('/v1/receiving-countries', '/v1/types?filter=delivery-modes', '/v1/states?receivingCountry=MX');
  return paths;
}

/** Asks every path in turn, CONCURRENCY at a time over kept-alive connections; the statuses seen. */
async function drive(paths: string[], total: number): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses = new Map<number, number>();
  let next = 0;
  const one = (path: string) =>
    new Promise<void>((resolve, reject) => {
      request(`${base}${path}`, { agent, headers: LOOKUP_HEADERS }, (response) => {
        response.resume();
        response.once('end', () => {
          statuses.set(response.statusCode!, (statuses.get(response.statusCode!) ?? 0) + 1);
          resolve();
        });
      })
        .once('error', reject)
        .end();
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) await one(paths[next++ % paths.length]);
    }),
  );
  agent.destroy();
  return statuses;
}

const oldSpaceUsed = (heap: { heapSpaceStatistics: { spaceName: string; spaceUsedSize: number }[] }) =>
  heap.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')!.spaceUsedSize;

/** The bytes the old space gained in the scavenges while `total` lookups were answered, per answer. */
async function promotedPerAnswer(paths: string[], total: number): Promise<number> {
  const profiler = new GCProfiler();
  profiler.start();
  const statuses = await drive(paths, total);
  const { statistics } = profiler.stop()!;
  expect([...statuses.keys()]).toEqual([200]);
  const scavenges = statistics.filter((gc) => gc.gcType === 'Scavenge');
  // Enough young collections to judge by (each is a chance to promote).
  expect(scavenges.length).toBeGreaterThanOrEqual(10);
  const promoted = scavenges.reduce(
    (sum, gc) => sum + Math.max(0, oldSpaceUsed(gc.afterGC) - oldSpaceUsed(gc.beforeGC)),
    0,
  );
  return promoted / total;
}

it('keeps what a lookup allocates out of the old generation', { timeout: 120_000 }, async () => {
  const paths = lookups();
  // Warm-up: the JIT, the index's remembered terms, the reference answers' bytes.
  await drive(paths, 1500);
  // The least of three windows: a timer or a late answer of the set-up may promote in one window; a lookup that
  // promotes what it allocates does so in every window. The file runs in a process of its own (vite.config.ts),
  // so no other test file's work shares this heap.
  const windows: number[] = [];
  for (let i = 0; i < WINDOWS; i++) windows.push(await promotedPerAnswer(paths, ANSWERS));
  expect(
    Math.min(...windows),
    `bytes promoted per answer in each window: ${windows.map(Math.round).join(', ')}`,
  ).toBeLessThan(MAX_PROMOTED_PER_ANSWER);
});
