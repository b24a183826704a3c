import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsResponse } from '../../contract';
import { seededDataDir, startServer } from '../../testing/server-process';
import { SQLITE_FILE_NAME } from '../open-store';

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
