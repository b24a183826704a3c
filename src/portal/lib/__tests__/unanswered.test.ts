import { createServer, get as httpGet, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCorrelationId } from '../api-client';
import { subscribeUnanswered, unansweredRequests, untilAnswered } from '../unanswered';

// A real HTTP server that takes every request and leaves the first `silent` of them unanswered (a frozen
// service, as far as the client can tell), answering the others with the correlation id they carried.
describe('a request the service does not answer', () => {
  const received: string[] = [];
  let silent = 0;
  const held: ServerResponse[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const id = String(request.headers['x-correlation-id']);
    received.push(id);
    if (received.length <= silent) return void held.push(response);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ answered: id }));
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // Node's own client (the test environment's fetch is happy-dom's), with the attempt's signal.
  const get = (signal: AbortSignal, correlationId: string) =>
    new Promise<{ answered: string }>((resolve, reject) => {
      const request = httpGet(url, { signal, headers: { 'x-correlation-id': correlationId } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(JSON.parse(body) as { answered: string }));
        response.on('error', reject);
      });
      request.on('error', reject);
    });

  it('is sent again when its window ends, and waits on the list (first reference) until an answer comes', async () => {
    received.length = 0;
    silent = 2;
    const seen: (string | undefined)[] = [];
    const unsubscribe = subscribeUnanswered(() => seen.push(unansweredRequests()[0]?.reference));
    const answer = await untilAnswered(get, newCorrelationId, undefined, [150, 300]);
    unsubscribe();

    // Three attempts, each with its own correlation id; the third (answered) one's answer is the result.
    expect(received).toHaveLength(3);
    expect(new Set(received).size).toBe(3);
    expect(answer).toEqual({ answered: received[2] });
    // On the list from the first attempt (with its reference) to the answer, then off it.
    expect(seen).toEqual([received[0], undefined]);
    expect(unansweredRequests()).toEqual([]);
  });

  it('stops, and leaves the list, when the caller no longer wants the answer', async () => {
    received.length = 0;
    silent = 100;
    const caller = new AbortController();
    const pending = untilAnswered(get, newCorrelationId, caller.signal, [200]);
    expect(unansweredRequests()).toHaveLength(1);
    setTimeout(() => caller.abort(), 500);
    await expect(pending).rejects.toThrow();
    expect(unansweredRequests()).toEqual([]);
    expect(received.length).toBeGreaterThanOrEqual(2);
  });

  it('passes an error on at once: a service that answers with an error is not one that does not answer', async () => {
    const failing = () => Promise.reject(new Error('answered 503'));
    await expect(untilAnswered(failing, newCorrelationId, undefined, [100])).rejects.toThrow('answered 503');
    expect(unansweredRequests()).toEqual([]);
  });
});
