import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../contract';
import { createTestApp, LOOKUP_HEADERS, type TestApp } from '../../testing/test-app';

// Issue 12, items 11–14: what a hostile or careless client sends, over inject and real HTTP.

const AGENTS = '/v1/agents?receivingCountry=MX&deliveryMode=01';
const portal = mkdtempSync(join(tmpdir(), 'rpl-portal-'));
mkdirSync(join(portal, 'assets'));
writeFileSync(join(portal, 'index.html'), '<!doctype html><title>portal</title>');
writeFileSync(join(portal, 'assets', 'app.js'), 'console.log(1)');

const lines: Record<string, any>[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ portalDir: portal, logger: { level: 'info', stream } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  rmSync(portal, { recursive: true, force: true });
});

const raw = (url: string, headers: Record<string, string> = LOOKUP_HEADERS, method = 'GET') =>
  t.app.inject({ method: method as 'GET', url, headers });

describe('item 11: malformed percent-escapes in query values', () => {
  it.each(['%zz', '%FF', '%C0%AF', '%ED%A0%80', 'ab%', 'ok%2'])(
    'search=%s is a 400 naming the parameter',
    async (escape) => {
      const res = await raw(`${AGENTS}&search=${escape}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem.parse(res.json()).errors).toEqual([
        { name: 'search', in: 'query', message: expect.stringContaining('percent-encoded UTF-8') },
      ]);
    },
  );

  it('still takes well-formed escapes, + as space, and UTF-8', async () => {
    expect((await raw(`${AGENTS}&search=EL%C3%89K`)).statusCode).toBe(200);
    expect((await raw(`${AGENTS}&search=GRUPO+ELEKTRA`)).statusCode).toBe(200);
    expect((await raw(`${AGENTS}&search=100%25`)).statusCode).toBe(200);
  });
});

describe('item 12: wrong methods and requests without Host', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    '%s on a lookup path is 405 with Allow, in the problem shape',
    async (method) => {
      const res = await raw(AGENTS, LOOKUP_HEADERS, method);
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem.parse(res.json()).type).toBe('urn:problem:method-not-allowed');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    },
  );

  it('an unknown path is still 404', async () => {
    expect((await raw('/v1/nothing-here', LOOKUP_HEADERS, 'POST')).statusCode).toBe(404);
  });

  it('an HTTP/1.1 request without Host gets a 400 problem with the security headers', async () => {
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(`GET ${AGENTS} HTTP/1.1\r\nx-fapi-financial-id: AB12CD\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('content-type: application/problem+json');
    expect(head.toLowerCase()).toContain('content-security-policy:');
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(problem.parse(JSON.parse(body)).errors).toEqual([{ name: 'host', in: 'header', message: 'is required' }]);
  });
});

describe('item 13: the audit log', () => {
  it('never writes an unknown parameter (a credential in the query) and caps the known ones', async () => {
    const before = lines.length;
    const secret = 'SECRET-TOKEN-0123456789abcdef';
    await raw(`${AGENTS}&access_token=${secret}&search=${'A'.repeat(150)}`);
    await raw(`/v1/states?receivingCountry=IN&api_key=${secret}`);
    const written = lines.slice(before);
    expect(written).toHaveLength(2);
    expect(JSON.stringify(written)).not.toContain(secret);
    expect(written[0].audit.unknownParameters).toBe(1);
    expect(written[0].audit.query.search.length).toBeLessThanOrEqual(101);
    expect(written[1].audit.query).toEqual({ receivingCountry: 'IN' });
  });
});

describe('item 14: headers and unknown paths', () => {
  it.each([
    '/v1/agents?receivingCountry=MX&deliveryMode=01',
    '/v1/payout-networks?receivingCountry=MX&deliveryMode=01',
    '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD',
  ])('%s carries Cache-Control: no-store', async (url) => {
    const res = await fetch(base + url, { headers: LOOKUP_HEADERS });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('an invalid lookup carries no-store too', async () => {
    expect((await fetch(`${base}/v1/agents`, { headers: LOOKUP_HEADERS })).headers.get('cache-control')).toBe(
      'no-store',
    );
  });

  it.each(['/assets/x.js.map', '/assets/missing.js', '/.env', '/favicon.ico', '/wp-login.php', '/assets'])(
    '%s is 404, not the portal page',
    async (path) => {
      const res = await fetch(base + path, { headers: { accept: 'text/html,*/*' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    },
  );

  it('portal routes (deep links) and real assets are still served', async () => {
    const deep = await fetch(`${base}/agents?receivingCountry=MX`, { headers: { accept: 'text/html' } });
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<title>portal</title>');
    expect((await fetch(`${base}/assets/app.js`)).status).toBe(200);
    // Not asking for HTML (a script, fetch): no page.
    expect((await fetch(`${base}/agents`, { headers: { accept: 'application/json' } })).status).toBe(404);
  });
});
