import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { createTestApp, type TestApp } from '../../../../../testing/test-app';
import {
  createOpsAccount,
  MULTIPART_TYPE,
  multipartUpload,
  signIn,
  type OpsSessionCookie,
} from '../../../../../testing/ops';

// A malformed multipart body on the desk's upload routes is the client's mistake: a 400 in the problem shape,
// logged below error, and nothing left in the upload folder. Through the real app, by inject and real HTTP.

/** A well-formed upload cut off inside the file: no closing boundary. */
const opening = multipartUpload({ kind: 'branches' }, 'bd.csv', 'routing_number,branch_name\r\n015270018,A branch\r\n')
  .toString()
  .replace(/\r\n--[^\r\n]+--\r\n$/, '');

const MALFORMED: [name: string, contentType: string, body: string][] = [
  ['a body cut off inside the file (no closing boundary)', MULTIPART_TYPE, opening],
  ['a body without any boundary', MULTIPART_TYPE, 'routing_number,branch_name\r\n015270018,A branch\r\n'],
  ['a Content-Type without its boundary parameter', 'multipart/form-data', opening],
  ['a boundary parameter longer than any parser takes', `multipart/form-data; boundary=${'b'.repeat(300)}`, opening],
];

const lines: { level: number; msg: string }[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

describe('malformed multipart uploads', () => {
  let t: TestApp;
  let dir: string;
  let uploads: string;
  let maker: OpsSessionCookie;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-malformed-'));
    uploads = join(dir, 'uploads');
    t = await createTestApp({ uploads: { dir: uploads }, logger: { level: 'info', stream: logStream } });
    await createOpsAccount(t.app, 'alice', ['maker']);
    maker = await signIn(t.app, 'alice');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const url of ['/v1/ops/changes', '/v1/ops/files/detect']) {
    it.each(MALFORMED)(`${url}: %s answers 400 in the problem shape, logged below error`, async (_name, type, body) => {
      const before = lines.length;
      const changesBefore = (await t.app.desk.list({ pageNumber: 1, pageSize: 1 })).pagination.totalItems;
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...maker.headers, 'content-type': type },
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      const answer = problem.parse(response.json());
      expect(answer.type).toBe('urn:problem:invalid-request');
      expect(answer.detail).toMatch(/multipart\/form-data body cannot be read/);
      const logged = lines.slice(before);
      expect(logged.filter((line) => line.level >= 50)).toEqual([]);
      expect(logged.some((line) => line.msg === 'malformed multipart upload refused' && line.level <= 40)).toBe(true);
      expect((await t.app.desk.list({ pageNumber: 1, pageSize: 1 })).pagination.totalItems).toBe(changesBefore);
      expect(readdirSync(uploads)).toEqual([]);
    });
  }

  it('over real HTTP too: a body cut off inside the file gets 400, not 500', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${base}/v1/ops/changes`, {
      method: 'POST',
      headers: { ...maker.headers, origin: base, 'content-type': MULTIPART_TYPE },
      body: opening,
    });
    expect(response.status).toBe(400);
    expect(problem.parse(await response.json()).type).toBe('urn:problem:invalid-request');
    expect(readdirSync(uploads)).toEqual([]);
  });
});
