import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
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

describe('WORKERS=2', () => {
  it('runs two server processes behind one port, each with its own search index, and stops them all on SIGTERM', async () => {
    const server = await startServer({ WORKERS: '2' });
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
      expect(children()).toHaveLength(2);
      const readyTimes = async () =>
        (
          await Promise.all(
            Array.from({ length: 10 }, () => fetch(`${server.url}/readyz`, { headers: { connection: 'close' } })),
          )
        ).every((r) => r.status === 200);
      await expect.poll(readyTimes, { timeout: 60_000, interval: 200 }).toBe(true);
      // Each process answers /readyz 200 only once its own index is built; lookups on fresh connections are
      // spread over both (node:cluster hands connections round-robin), and every one is answered.
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(
            `${server.url}/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&district=dhaka`,
            {
              headers: { 'x-fapi-financial-id': 'AB12CD', connection: 'close' },
            },
          ),
        ),
      );
      const bodies = await Promise.all(answers.map((a) => a.json() as Promise<{ pagination: { totalItems: number } }>));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(new Set(bodies.map((b) => b.pagination.totalItems)).size).toBe(1);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(children()).toEqual([]);
    } finally {
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
