import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_HEADERS, createTestApp, type TestApp } from '../../../testing/test-app';
import type { AgentSearch, BranchSearch } from '../../store/store';
import { BodyPool } from '../body-pool';

// Search answers are written into pooled buffers, each used again once its response has closed
// (search/body-pool.ts). Over real HTTP, many different answers at once, big and small, with clients that
// hang up half-way: every answer read in full is exactly its own search's answer, never bytes of another.
// (On loopback the kernel takes a whole answer at once, so even a pool that took buffers back too early passes
// here; that a buffer comes back only on 'close' rests on Node's documented meaning of that event.)

let t: TestApp;
let base = '';
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const branchSearches: BranchSearch[] = ['ICICIN', 'SBININ', 'HDFCIN'].flatMap((office) =>
  [1, 7, 50, 333, 1000].flatMap((pageSize) =>
    [1, 2, 3].map((pageNumber) => ({ receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: office, pageNumber, pageSize })),
  ),
);
const bdSearches: BranchSearch[] = ['ROAD', 'BAZAR', 'DHAKA', undefined].flatMap((branchLocation) =>
  [10, 400].map((pageSize) => ({ receivingCountry: 'BD', deliveryMode: 4, receivingAgentHeadOfficeCode: 'BRACBD', branchLocation, pageNumber: 1, pageSize })),
);
const agentSearches: AgentSearch[] = ['MX', 'PH', 'GT'].flatMap((receivingCountry) =>
  [5, 200, 1000].flatMap((pageSize) => [1, 2].map((pageNumber) => ({ receivingCountry, deliveryMode: 1, pageNumber, pageSize }))),
);

const url = (path: string, search: Record<string, string | number | undefined>) =>
  `${base}${path}?${new URLSearchParams(Object.entries(search).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v).padStart(k === 'deliveryMode' ? 2 : 0, '0')]]))).toString()}`;

describe('pooled answer buffers', () => {
  it('many different answers at once, with clients hanging up half-way: each answer is its own search\'s', async () => {
    const index = t.app.searchIndex.index();
    const all = [
      ...branchSearches.map((s) => ({ url: url('/v1/banks/branches', { ...s }), body: JSON.stringify(index.branches(s)) })),
      ...bdSearches.map((s) => ({ url: url('/v1/banks/branches', { ...s }), body: JSON.stringify(index.branches(s)) })),
      ...agentSearches.map((s) => ({ url: url('/v1/agents', { ...s }), body: JSON.stringify(index.agents(s)) })),
    ];
    // Distinct answers only (a page past the end of a small head office repeats another's empty page).
    const expected = [...new Map(all.map((e) => [e.body, e])).values()];
    expect(expected.length).toBeGreaterThan(50);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        [...expected, ...expected].map(({ url: target, body }, i) =>
          new Promise<{ target: string; got: string; body: string } | null>((resolve, reject) => {
            const request = get(target, { headers: LOOKUP_HEADERS, agent: false }, (response) => {
              if (response.statusCode !== 200) reject(new Error(`${target} answered ${response.statusCode}`));
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => {
                chunks.push(chunk);
                // Every fifth client hangs up after its first bytes: that buffer comes back to the pool
                // without its answer having finished.
                if (i % 5 === 4) {
                  request.destroy();
                  resolve(null);
                }
              });
              response.on('end', () => resolve({ target, got: Buffer.concat(chunks).toString('utf8'), body }));
              response.on('error', () => resolve(null));
            });
            request.on('error', (error) => (i % 5 === 4 ? resolve(null) : reject(error)));
          }),
        ),
      );
      for (const answer of answers) if (answer) expect(answer.got, answer.target).toBe(answer.body);
    }
  });
});

describe('BodyPool', () => {
  it('hands out exact lengths, takes a buffer back once, and reuses it', () => {
    const pool = new BodyPool();
    const first = pool.take(5000);
    expect(first.length).toBe(5000);
    pool.give(first);
    pool.give(first);
    expect(pool.idle).toBe(1);
    const second = pool.take(6000);
    expect(second.length).toBe(6000);
    expect(second.buffer).toBe(first.buffer);
    expect(pool.idle).toBe(0);
    // Not one of its own, or too big to keep: ignored.
    pool.give(Buffer.alloc(5000));
    pool.give(pool.take(4 << 20));
    expect(pool.idle).toBe(0);
  });
});
