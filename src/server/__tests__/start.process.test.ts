import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeLargeBangladeshBranchFile } from '../../testing/large-branch-file';

// `npm start` builds the portal and the server (npm run build:server: esbuild bundles into dist/server) and
// runs `node dist/server/main.js`: this starts that same compiled program (built by build-setup.ts) the way a
// newcomer's first start does — an empty data directory — and talks to it over real HTTP. Its search index is
// built by the compiled index worker; an import of the shipped agents (25,120 rows) is validated by the compiled
// validation worker. No TypeScript loader is present in these processes: plain `node`.

const root = join(import.meta.dirname, '..', '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'rpl-start-'));

function start(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving on (http:\/\/\S+?)\/? /.exec(output);
      if (match) resolve({ child, url: match[1].replace(/\/$/, ''), output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

describe('starting the service', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seeds an empty data directory with the real data, prints its URL and serves it; a restart reuses it', async () => {
    expect(readFileSync(join(root, 'dist', 'server', 'main.js'), 'utf8')).not.toMatch(/from "(tsx|@faker-js\/faker)/);
    const first = await start();
    try {
      expect(first.output()).toMatch(/Seeded \d+ bank branches/);
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expect
        .poll(async () => (await fetch(`${first.url}/readyz`)).status, { timeout: 60_000, interval: 100 })
        .toBe(200);
      const res = await fetch(
        `${first.url}/v1/banks/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN&bankCode=ABHY0065002`,
        {
          headers: { 'x-fapi-financial-id': 'AB12CD' },
        },
      );
      expect(res.status).toBe(200);
      expect((await res.json()).data[0]).toMatchObject({
        routingNumber: 'ABHY0065002',
        branchName: 'ABHYUDAYA NAGAR',
        state: 'MH',
      });
    } finally {
      expect(await stop(first.child)).toBe(0);
    }
    const second = await start();
    try {
      expect(second.output()).not.toMatch(/Seeding/);
      const res = await fetch(`${second.url}/v1/receiving-countries`, { headers: { 'x-fapi-financial-id': 'AB12CD' } });
      expect((await res.json()).data.length).toBe(14);
    } finally {
      await stop(second.child);
    }
  });

  it('imports with the compiled command, staged and published in the compiled worker threads', async () => {
    // Large enough (8 MB, 60,000 rows) for the staging worker, the publishing worker and its validation worker.
    const file = join(dataDir, 'bd-60k.csv');
    await writeLargeBangladeshBranchFile(file, 60_000, 'COMPILED');
    const output = execFileSync(process.execPath, ['dist/server/import.js', 'branches', file, '--allow-removals'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(output).toMatch(/60000 rows read, 60000 valid, 0 bad; applied: replaced the branches of BD/);
  }, 120_000);
});

describe('a database file that is not a database (issue 12, item 5)', () => {
  // An empty file is what a failed copy or restore leaves behind: seeding it would silently replace the imported
  // data with the shipped seed. Any existing file that is not a SQLite database is refused, whatever its size.
  it.each([
    ['empty', Buffer.alloc(0)],
    ['a few bytes of text', Buffer.from('not a db\n')],
    ['a page of zeros', Buffer.alloc(4096)],
  ])('refuses to start on %s: exit 1, a clear message, the file untouched', async (_name, content) => {
    const dir = mkdtempSync(join(tmpdir(), 'rpl-corrupt-'));
    try {
      const file = join(dir, 'lookup.sqlite');
      writeFileSync(file, content);
      const child = spawn(process.execPath, ['dist/server/main.js'], {
        cwd: root,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      clearTimeout(timer);
      expect(code, output).toBe(1);
      expect(output).toContain(`The database file ${file} is not a usable SQLite database`);
      expect(output).not.toMatch(/Seed/);
      expect(statSync(file).size).toBe(content.length);
      expect(readFileSync(file).equals(content)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
