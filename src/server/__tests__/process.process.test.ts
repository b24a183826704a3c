import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsResponse, readyResponse } from '../../contract';
import { seededDataDir, startServer } from '../../testing/server-process';
import { SQLITE_FILE_NAME, openStore } from '../open-store';
import { generateSeedFiles, generatedDataSet } from '../seed/generate';

// The server as operators run it (a process): start-up faults and SIGTERM.

describe('start with a bad database file', () => {
  it('exits non-zero with a clear message when the file is corrupt', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rpl-corrupt-'));
    writeFileSync(join(dataDir, SQLITE_FILE_NAME), Buffer.alloc(64 * 1024, 'not a database '));
    const server = await startServer({}, dataDir);
    expect(server.url).toBe('');
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(
      /Could not start: The database file .*lookup\.sqlite is not a usable SQLite database \(file is not a database\)/,
    );
    await server.stop();
  });

  it('exits non-zero with a clear message when the file is missing and seeding is forbidden', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rpl-missing-'));
    const server = await startServer({ SEED_ON_START: 'false' }, dataDir);
    expect(server.url).toBe('');
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(
      /Could not start: The database file .*lookup\.sqlite does not exist, and SEED_ON_START=false forbids creating it/,
    );
    await server.stop();
  });

  it('starts from an existing database with seeding forbidden', async () => {
    const server = await startServer({ SEED_ON_START: 'false' }, seededDataDir());
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    expect(await server.exited).toBe(0);
  });
});

/** Opens a connection and sends one GET; the caller decides when the answer is read. */
function rawRequest(port: number, target: string) {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-fapi-financial-id: AB12CD\r\nConnection: close\r\n\r\n`);
  return socket;
}

/** Status and body of one HTTP/1.1 answer with Content-Length; throws when it was cut short. */
function parseAnswer(raw: Buffer): { status: number; body: string } {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error('truncated answer head');
  const head = raw.subarray(0, headEnd).toString('latin1');
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
  const body = raw.subarray(headEnd + 4);
  if (body.length !== length) throw new Error(`truncated body: ${body.length} of ${length} bytes`);
  return { status: Number(head.split(' ')[1]), body: body.toString('utf8') };
}

describe('SIGTERM', () => {
  it('stops accepting, delivers the answers in flight in full, then exits 0', async () => {
    const server = await startServer({});
    const port = Number(new URL(server.url).port);
    // Eight readers each take a ~450 KB answer and stop reading after its first bytes: SIGTERM arrives
    // while every answer is still on its way to the client.
    const readers = Array.from({ length: 8 }, () => {
      const socket = rawRequest(port, '/v1/agents?receivingCountry=MX&deliveryMode=1&pageSize=1000');
      const chunks: Buffer[] = [];
      const started = new Promise<void>((resolve) =>
        socket.once('data', (chunk: Buffer) => (chunks.push(chunk), socket.pause(), resolve())),
      );
      const closed = new Promise((resolve) => socket.once('close', resolve));
      return { socket, chunks, started, closed };
    });
    await Promise.all(readers.map((r) => r.started));

    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(port, '127.0.0.1');
      probe.once('connect', () => (probe.destroy(), resolve('connected')));
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');

    for (const reader of readers) {
      reader.socket.on('data', (chunk: Buffer) => reader.chunks.push(chunk));
      reader.socket.resume();
    }
    await Promise.all(readers.map((r) => r.closed));
    for (const reader of readers) {
      const answer = parseAnswer(Buffer.concat(reader.chunks));
      expect(answer.status).toBe(200);
      expect(agentsResponse.parse(JSON.parse(answer.body)).data).toHaveLength(1000);
    }
    expect(await server.exited).toBe(0);
    console.log(
      `SIGTERM drain: ${readers.length} answers of ~450 KB in flight at SIGTERM delivered in full; new connections refused; exit 0`,
    );
    await server.stop();
  });
});

/** What one request on a kept-alive connection got, and the local port of the socket it went over. */
interface Answer {
  status: number;
  body: string;
  localPort: number | undefined;
}

/**
 * One kept-alive connection (an agent of one socket): every request goes over the same socket, so the same
 * serving thread answers them all; /readyz says which.
 */
async function keptConnection(base: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.request(`${base}${path}`, { method, agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            body: Buffer.concat(chunks).toString('utf8'),
            localPort: response.socket?.localPort,
          }),
        );
      });
      request.on('error', reject);
      request.end(body);
    });
  const ready = await send('GET', '/readyz');
  const { thread } = readyResponse.parse(JSON.parse(ready.body));
  return {
    thread,
    /** Sends a request on this connection; throws if it went over another socket. */
    async send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
      const answer = await send(method, path, headers, body);
      expect(answer.localPort, 'the request went over the connection /readyz was asked on').toBe(ready.localPort);
      return answer;
    },
    close: () => agent.destroy(),
  };
}
type KeptConnection = Awaited<ReturnType<typeof keptConnection>>;

/**
 * Opens connections until each of the `threads` serving threads holds `each` of them (the kernel hands each
 * new connection to one thread); the others are closed. In turn: one of each thread, then the next of each.
 */
async function connectionsOnEveryThread(base: string, threads: number, each: number): Promise<KeptConnection[]> {
  const byThread = new Map<number, KeptConnection[]>();
  for (let opened = 0; [...byThread.values()].filter((c) => c.length >= each).length < threads; opened++) {
    if (opened >= 400) throw new Error(`400 connections did not reach ${threads} threads ${each} times each`);
    const connection = await keptConnection(base);
    const held = byThread.get(connection.thread) ?? [];
    if (held.length < each) byThread.set(connection.thread, [...held, connection]);
    else connection.close();
  }
  expect(byThread.size).toBe(threads);
  const held = [...byThread.values()];
  return Array.from({ length: each }, (_, i) => held.map((connections) => connections[i])).flat();
}

/** One serving thread per core (at least two): what SERVING_THREADS=n serves with on this machine. */
const DEFAULT_THREADS = Math.max(Math.min(availableParallelism(), 16), 2);
const BRANCHES =
  '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&district=dhaka';

describe('one serving thread per core', () => {
  it('answers on one port from every thread of one process, every connection answered alike; SIGTERM stops them all', async () => {
    const server = await startServer({ SERVING_THREADS: String(DEFAULT_THREADS) });
    const connections: KeptConnection[] = [];
    try {
      expect(server.url).not.toBe('');
      const children = () => {
        try {
          return readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, 'utf8')
            .trim()
            .split(/\s+/)
            .filter(Boolean);
        } catch {
          return [];
        }
      };
      // One process: the threads are its own, no other server process.
      expect(children()).toEqual([]);
      const readyTimes = async () =>
        (
          await Promise.all(
            Array.from({ length: 10 }, () => fetch(`${server.url}/readyz`, { headers: { connection: 'close' } })),
          )
        ).every((r) => r.status === 200);
      await expect.poll(readyTimes, { timeout: 60_000, interval: 200 }).toBe(true);
      // The main thread answers /readyz 200 only once every thread serves the index; connections are spread over
      // the threads (the kernel hands each to one), and every one is answered.
      connections.push(...(await connectionsOnEveryThread(server.url, DEFAULT_THREADS, 2)));
      expect(new Set(connections.map((c) => c.thread)).size).toBe(DEFAULT_THREADS);
      const kept = await Promise.all(
        connections.map((c) => c.send('GET', BRANCHES, { 'x-fapi-financial-id': 'AB12CD' })),
      );
      const fresh = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${server.url}${BRANCHES}`, { headers: { 'x-fapi-financial-id': 'AB12CD', connection: 'close' } }),
        ),
      );
      expect(kept.map((a) => a.status)).toEqual(Array(kept.length).fill(200));
      expect(fresh.map((a) => a.status)).toEqual(Array(20).fill(200));
      const bodies = [...kept.map((a) => a.body), ...(await Promise.all(fresh.map((a) => a.text())))];
      const totals = bodies.map((b) => (JSON.parse(b) as { pagination: { totalItems: number } }).pagination.totalItems);
      expect(new Set(totals).size).toBe(1);
      expect(new Set(bodies).size).toBe(1);
      for (const c of connections) c.close();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(children()).toEqual([]);
    } finally {
      for (const c of connections) c.close();
      await server.stop();
    }
  });
});

describe('rate limits of a process with several serving threads', () => {
  // Every limit counts per process (rate-limit-counters.ts): a client whose connections land on different
  // threads has one budget, not one per thread.
  it('holds the sign-in budget per account and the lookups budget per caller whichever thread answers', async () => {
    const threads = DEFAULT_THREADS;
    const server = await startServer({
      SERVING_THREADS: String(threads),
      OPS_SIGN_IN_MAX_PER_ACCOUNT: '4',
      OPS_SIGN_IN_MAX_PER_ADDRESS: '1000',
      // The sign-ins count in the lookups' budget of their address too (every /v1 call does): 20 is above the
      // sign-ins sent here, so a sign-in is refused by its own limit only.
      RATE_LIMIT_MAX: '20',
      RATE_LIMIT_PER_ADDRESS_MAX: '1000',
    });
    const connections: KeptConnection[] = [];
    try {
      expect(server.url).not.toBe('');
      // Each budget is spent over connections of every thread in turn, then every thread is asked once more.
      connections.push(...(await connectionsOnEveryThread(server.url, threads, 3)));
      const spread = (count: number) => Array.from({ length: count }, (_, i) => connections[i % connections.length]);
      /** The status, or a 429's detail (which limit refused it). */
      const outcome = (answer: Answer) =>
        answer.status === 429 ? (JSON.parse(answer.body) as { detail: string }).detail : answer.status;

      const signIn = (c: KeptConnection, name: string) =>
        c.send(
          'POST',
          '/v1/ops/session',
          { 'content-type': 'application/json' },
          JSON.stringify({ name, password: 'not the password' }),
        );
      const spent = [];
      for (const c of spread(4)) spent.push((await signIn(c, 'victim')).status);
      expect(spent).toEqual([401, 401, 401, 401]);
      const past = [];
      for (const c of connections) past.push({ thread: c.thread, outcome: outcome(await signIn(c, 'Victim')) });
      expect(past).toEqual(
        connections.map((c) => ({ thread: c.thread, outcome: expect.stringMatching(/^Too many sign-in attempts/) })),
      );
      // Another account has its own budget.
      expect((await signIn(connections[0], 'other')).status).toBe(401);

      const lookUp = (c: KeptConnection, id: string) =>
        c.send('GET', '/v1/receiving-countries', { 'x-fapi-financial-id': id });
      const looked = [];
      for (const c of spread(20)) looked.push((await lookUp(c, 'AB12CD')).status);
      expect(looked).toEqual(Array(20).fill(200));
      const over = [];
      for (const c of connections) over.push({ thread: c.thread, outcome: outcome(await lookUp(c, 'AB12CD')) });
      expect(over).toEqual(
        connections.map((c) => ({
          thread: c.thread,
          outcome: expect.stringMatching(/^Rate limit exceeded: 20 lookups per correspondent per 60 s/),
        })),
      );
      expect((await lookUp(connections[1], 'ZZ9999')).status).toBe(200);
    } finally {
      for (const c of connections) c.close();
      await server.stop();
    }
  });
});

describe('SERVING_THREADS=2', () => {
  it('answers on one port from two threads over one index; a new data version reaches both; SIGTERM stops them all', async () => {
    const server = await startServer({ SERVING_THREADS: '2' });
    const ready = async () => {
      const response = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } });
      return response.status === 200 ? readyResponse.parse(await response.json()) : null;
    };
    /** The data version each thread reports, asked on fresh connections until both threads have answered. */
    const versionsByThread = async (version: string) => {
      const seen = new Map<number, string>();
      await expect
        .poll(
          async () => {
            const answer = await ready();
            if (answer) seen.set(answer.thread, answer.searchIndex.dataVersion);
            return [...seen.values()].filter((v) => v === version).length;
          },
          { timeout: 60_000, interval: 20 },
        )
        .toBe(2);
      return seen;
    };
    const branches = `${server.url}/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&district=dhaka`;
    const lookUp = () =>
      Promise.all(
        Array.from({ length: 20 }, async () => {
          const answer = await fetch(branches, { headers: { 'x-fapi-financial-id': 'AB12CD', connection: 'close' } });
          return { status: answer.status, version: answer.headers.get('x-data-version'), body: await answer.text() };
        }),
      );
    try {
      expect(server.url).not.toBe('');
      // The main thread (0) says ready only once the other thread serves too: from the first 200 on, both answer.
      await expect.poll(async () => (await ready()) !== null, { timeout: 60_000, interval: 100 }).toBe(true);
      const first = await versionsByThread('1');
      expect([...first.keys()].sort()).toEqual([0, expect.any(Number)]);
      const answers = await lookUp();
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      // One index: every connection, whichever thread took it, gets the same answer.
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(new Set(answers.map((a) => a.version))).toEqual(new Set(['1']));

      // Another data set published into the store (as an import or another instance does): the threads notice
      // on their requests, the main thread builds once, and both serve the new version.
      const store = await openStore({ dataDir: server.dataDir, seedOnStart: false });
      try {
        await store.replaceDataSet(generatedDataSet(generateSeedFiles({ branches: 300, agents: 200, seed: 11 }), 11));
      } finally {
        await store.close();
      }
      await expect
        .poll(async () => new Set((await lookUp()).map((a) => a.version)), { timeout: 60_000, interval: 500 })
        .toEqual(new Set(['2']));
      await versionsByThread('2');
      const after = await lookUp();
      expect(new Set(after.map((a) => a.body)).size).toBe(1);
      expect(after[0].body).not.toBe(answers[0].body);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
