import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES } from '../plugins/external/compress';
import { createTestApp, LOOKUP_HEADERS, type TestApp } from '../../testing/test-app';

// Issue 16: Brotli and gzip on the wire, over real HTTP (node:http, which, unlike fetch, hands back the bytes
// as sent), each compressed answer decoded and compared with the identity answer to the same request.

const BRANCHES_50 =
  '/v1/banks/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=FDRLIN&pageSize=50';
const AGENTS_1000 = '/v1/agents?receivingCountry=MX&deliveryMode=01&pageSize=1000';
// The largest payout-network answer of the data set (Mexico, cash pickup), just over the threshold.
const PAYOUT_NETWORKS = '/v1/payout-networks?receivingCountry=MX&deliveryMode=01';

// A portal folder laid out as `vite build` writes it (vite.config.ts): hashed assets, each text file with its
// .br and .gz beside it. The content is made up so that a decoded answer can only match the right file.
const portal = mkdtempSync(join(tmpdir(), 'rpl-portal-'));
const INDEX_HTML = `<!doctype html><html lang="en"><title>portal</title><script type="module" src="/assets/index-AbC123.js"></script>${'<!-- pad -->'.repeat(200)}</html>`;
const MAIN_JS = `export const screens = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `screen ${i}`))};`;
mkdirSync(join(portal, 'assets'));
const writeWithCompressed = (file: string, content: string) => {
  writeFileSync(join(portal, file), content);
  writeFileSync(join(portal, `${file}.br`), brotliCompressSync(content));
  writeFileSync(join(portal, `${file}.gz`), gzipSync(content));
};
writeWithCompressed('index.html', INDEX_HTML);
writeWithCompressed('assets/index-AbC123.js', MAIN_JS);

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let t: TestApp;
let base: string;

function get(path: string, headers: Record<string, string> = {}, at = base): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(at + path, { headers: { ...LOOKUP_HEADERS, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (answer: RawAnswer) => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === undefined) return answer.body;
  throw new Error(`unexpected content-encoding ${String(encoding)}`);
};

beforeAll(async () => {
  t = await createTestApp({ portalDir: portal });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  rmSync(portal, { recursive: true, force: true });
});

describe('JSON answers', () => {
  // The search answers are ready-made JSON bytes (Buffer payloads), the payout networks a serialised object.
  it.each([
    ['a 50-row branch page', BRANCHES_50],
    ['a 1000-row agent page', AGENTS_1000],
    ['the payout networks', PAYOUT_NETWORKS],
  ])('%s: br and gzip decode to the identity answer, still no-store', async (_name, path) => {
    const identity = await get(path, { 'accept-encoding': 'identity' });
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    JSON.parse(identity.body.toString('utf8'));
    for (const encoding of ['br', 'gzip']) {
      const answer = await get(path, { 'accept-encoding': encoding });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(decode(answer).equals(identity.body)).toBe(true);
      // Compression is what makes these answers cheap: JSON of repeated field names shrinks to a fraction.
      expect(answer.body.length).toBeLessThan(identity.body.length / 2);
    }
  });

  it('many compressed search answers at once each decode to their own identity answer (pooled buffers)', async () => {
    const paths = Array.from({ length: 24 }, (_, i) => `${BRANCHES_50.replace('pageSize=50', `pageSize=${10 + i}`)}`);
    const identities = await Promise.all(paths.map((path) => get(path, { 'accept-encoding': 'identity' })));
    const compressed = await Promise.all(paths.map((path) => get(path, { 'accept-encoding': 'gzip, deflate, br' })));
    compressed.forEach((answer, i) => {
      expect(answer.headers['content-encoding']).toBe('br');
      expect(decode(answer).equals(identities[i].body)).toBe(true);
    });
    expect(new Set(identities.map((answer) => answer.body.length)).size).toBe(paths.length);
  });

  it('a browser asking for "gzip, deflate, br, zstd" gets Brotli while the server is not busy', async () => {
    const answer = await get(BRANCHES_50, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(answer.headers['content-encoding']).toBe('br');
  });

  it('no Accept-Encoding: the answer goes out as it is', async () => {
    const answer = await get(BRANCHES_50);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString('utf8')).toMatch(/^\{"data":\[/);
  });

  it('an answer under the threshold is not compressed (a problem+json 400)', async () => {
    const answer = await get('/v1/banks/branches?receivingCountry=IN&deliveryMode=04', {
      'accept-encoding': 'br, gzip',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('reference lookups keep their ETag and answer 304 to it, compressed or not', async () => {
    const first = await get('/v1/receiving-countries', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).not.toBe('undefined');
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await get('/v1/receiving-countries', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('a reference answer is compressed once per data set: every request that accepts it gets the same bytes', async () => {
    const identity = await get('/v1/receiving-countries', { 'accept-encoding': 'identity' });
    expect(identity.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    for (const encoding of ['br', 'gzip']) {
      const [first, second] = [
        await get('/v1/receiving-countries', { 'accept-encoding': encoding }),
        await get('/v1/receiving-countries', { 'accept-encoding': `${encoding};q=1, identity;q=0.5` }),
      ];
      for (const answer of [first, second]) {
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        expect(answer.headers.etag).toBe(identity.headers.etag);
        expect(decode(answer).equals(identity.body)).toBe(true);
      }
      expect(second.body.equals(first.body)).toBe(true);
      // Kept beside the JSON of the data set, not compressed again per request.
      const kept = await t.app.reference.body('receiving-countries', () => {
        throw new Error('built again');
      });
      expect(kept.encoded[encoding as 'br' | 'gzip']?.equals(first.body)).toBe(true);
    }
  });

  it('a stray Content-Encoding on a GET is ignored (the API takes no bodies to decode)', async () => {
    const answer = await get(BRANCHES_50, { 'content-encoding': 'compress', 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
  });

  it('/v1/openapi.json and /v1/docs still answer, the document compressed', async () => {
    const plain = await get('/v1/openapi.json');
    const document = await get('/v1/openapi.json', { 'accept-encoding': 'br' });
    expect(document.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(document).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    const docs = await get('/v1/docs/', { 'accept-encoding': 'br, gzip', accept: 'text/html' });
    expect(docs.status).toBe(200);
    expect(decode(docs).toString('utf8')).toMatch(/swagger/i);
  });
});

describe('the portal files', () => {
  it.each(['br', 'gzip'])('a hashed asset is sent precompressed (%s) and kept a year, immutable', async (encoding) => {
    const answer = await get('/assets/index-AbC123.js', { 'accept-encoding': encoding });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(decode(answer).toString('utf8')).toBe(MAIN_JS);
  });

  it('without Accept-Encoding the asset is the plain file, same caching', async () => {
    const answer = await get('/assets/index-AbC123.js');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString('utf8')).toBe(MAIN_JS);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each(['/', '/index.html', '/agents?receivingCountry=MX'])(
    '%s: index.html, compressed and no-cache',
    async (path) => {
      const answer = await get(path, { 'accept-encoding': 'br, gzip', accept: 'text/html' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(decode(answer).toString('utf8')).toBe(INDEX_HTML);
    },
  );

  it('index.html revalidates: its ETag is answered with 304', async () => {
    const first = await get('/', { 'accept-encoding': 'br', accept: 'text/html' });
    const etag = String(first.headers.etag);
    const again = await get('/', { 'accept-encoding': 'br', accept: 'text/html', 'if-none-match': etag });
    expect(again.status).toBe(304);
  });
});

describe('search answers as the gzip kept with the index, while the thread answering is busy', () => {
  /**
   * The test's own thread serves the app: it is held for longer than the load gauge's half-second period, so the
   * gauge, overdue, finds it busy and says so until its next period ends.
   */
  const whileBusy = async <T>(ask: () => Promise<T>): Promise<T> => {
    const until = Date.now() + 700;
    while (Date.now() < until);
    await delay(1);
    return ask();
  };
  const at = (path: string, headers: Record<string, string>) => get(path, headers);

  it.each([
    // A browser: the search answer is the gzip the index writes from its records, compressed when it was built.
    ['gzip, deflate, br, zstd', BRANCHES_50, 'gzip'],
    ['gzip, deflate, br', AGENTS_1000, 'gzip'],
    ['gzip', BRANCHES_50, 'gzip'],
    // Brotli where the client prefers it, or takes nothing else: compressed per request.
    ['gzip;q=0.5, br', BRANCHES_50, 'br'],
    ['br', AGENTS_1000, 'br'],
    // Answers that are not searches keep Brotli first.
    ['gzip, deflate, br, zstd', PAYOUT_NETWORKS, 'br'],
  ])('Accept-Encoding "%s" on %s: %s', async (accept, path, encoding) => {
    const answer = await whileBusy(() => at(path, { 'accept-encoding': accept }));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.headers['cache-control']).toBe('no-store');
    const identity = await at(path, { 'accept-encoding': 'identity' });
    expect(decode(answer).equals(identity.body)).toBe(true);
    // Each row compressed on its own: less than Brotli of the whole page, still well under the JSON.
    if (encoding === 'gzip') expect(answer.body.length).toBeLessThan(identity.body.length * 0.75);
  });

  it('many at once each decode to their own identity answer (pooled buffers)', async () => {
    const paths = Array.from({ length: 24 }, (_, i) => `${BRANCHES_50.replace('pageSize=50', `pageSize=${10 + i}`)}`);
    const compressed = await whileBusy(() =>
      Promise.all(paths.map((path) => at(path, { 'accept-encoding': 'gzip, deflate, br' }))),
    );
    const identities = await Promise.all(paths.map((path) => at(path, { 'accept-encoding': 'identity' })));
    compressed.forEach((answer, i) => {
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(decode(answer).equals(identities[i].body)).toBe(true);
    });
  });
});
