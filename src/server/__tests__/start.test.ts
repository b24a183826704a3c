import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` runs `tsx src/server/main.ts` after building the portal: this starts that same program the way
// a newcomer's first start does — an empty data directory — and talks to it over real HTTP.

const root = join(import.meta.dirname, '..', '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'rpl-start-'));

function start(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
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
    const first = await start();
    try {
      expect(first.output()).toMatch(/Seeded \d+ bank branches/);
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expect.poll(async () => (await fetch(`${first.url}/readyz`)).status, { timeout: 60_000, interval: 100 }).toBe(200);
      const res = await fetch(`${first.url}/v1/banks/branches?receivingCountry=IN&deliveryMode=04&receivingAgentHeadOfficeCode=ICICIN&bankCode=ABHY0065002`, {
        headers: { 'x-fapi-financial-id': 'AB12CD' },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).data[0]).toMatchObject({ routingNumber: 'ABHY0065002', branchName: 'ABHYUDAYA NAGAR', state: 'MH' });
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
});
