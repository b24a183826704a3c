import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { problem } from '../../contract';
import { createTestApp, type TestApp } from '../../testing/test-app';

// Issue 12, item 9: a client that sends its request slowly gets a 408 problem after a bounded time and its
// socket closed; one address cannot hold more than its share of connections.

const LIMITS = { headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxConnectionsPerAddress: 4 };
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ limits: LIMITS });
  port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(async () => t.close());

/**
 * Opens a socket, sends `first`, then one byte of `trickle` every `everyMs`; resolves with all it read and when it
 * closed.
 */
function slowClient(first: string, trickle: string, everyMs: number): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.write(first);
      let at = 0;
      timer = setInterval(() => {
        if (at < trickle.length && socket.writable) socket.write(trickle[at++]);
      }, everyMs);
    });
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    setTimeout(() => reject(new Error(`still open after 20 s; read: ${text}`)), 20_000).unref();
  });
}

const statusAndBody = (text: string) => {
  const [head, body] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), head, body };
};

it('slow headers: 408 in the problem shape within the headers timeout', async () => {
  const { text, closedAfterMs } = await slowClient(
    'GET /v1/receiving-countries HTTP/1.1\r\nHost: x\r\n',
    'x-fapi-financial-id: AB12CD\r\n'.repeat(10),
    300,
  );
  const answer = statusAndBody(text);
  expect(answer.status).toBe(408);
  expect(answer.head.toLowerCase()).toContain('content-type: application/problem+json');
  expect(problem.parse(JSON.parse(answer.body)).type).toBe('urn:problem:request-timeout');
  expect(closedAfterMs).toBeLessThan(LIMITS.headersTimeoutMs + 2000);
});

it('a body trickling 1 byte at a time: the socket is closed within the request timeout', async () => {
  const { text, closedAfterMs } = await slowClient(
    'GET /v1/receiving-countries HTTP/1.1\r\nHost: x\r\nx-fapi-financial-id: AB12CD\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n',
    '{"a":"' + 'x'.repeat(190) + '"}',
    250,
  );
  // A GET is answered without waiting for its body; the socket, held by the unfinished body, is then closed.
  expect([200, 408]).toContain(statusAndBody(text).status);
  expect(closedAfterMs).toBeLessThan(LIMITS.requestTimeoutMs + 2000);
});

it('caps the connections one address holds; the others are still served', async () => {
  const held: Socket[] = [];
  try {
    for (let i = 0; i < LIMITS.maxConnectionsPerAddress; i++) {
      held.push(
        await new Promise<Socket>((resolve) => {
          const s = connect(port, '127.0.0.1', () => resolve(s));
        }),
      );
    }
    const refused = await slowClient('', '', 1000);
    expect(statusAndBody(refused.text).status).toBe(429);
    expect(refused.closedAfterMs).toBeLessThan(1000);
  } finally {
    for (const socket of held) socket.destroy();
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  const res = await fetch(`http://127.0.0.1:${port}/v1/receiving-countries`, {
    headers: { 'x-fapi-financial-id': 'AB12CD' },
  });
  expect(res.status).toBe(200);
});
