import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { createTestApp } from '../../../testing/test-app';
import { writeLargeBangladeshBranchFile } from '../../../testing/large-branch-file';
import { seededDataDir, servedChecksum, startCli, type DataDir } from '../../../testing/import-cli';

// An import killed partway (SIGKILL: no handler runs, no cleanup) leaves the previous data served, whole:
// the same rows (counts and a checksum over every served table) and a database that passes integrity_check.

let data: DataDir;
let bigFile: string;
beforeAll(async () => {
  data = seededDataDir();
  bigFile = join(data.dir, 'bd-200k.csv');
  await writeLargeBangladeshBranchFile(bigFile, 200_000, 'KILLED');
});
afterAll(() => data.remove());

/** Waits (bounded) until `ready` holds, polling. */
async function until(ready: () => boolean, what: string, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

it.each([
  ['while validating', /validating \d+% \(\d+\/\d+ rows\)/],
  // The publish started: the new data set being built and written, in the transaction not committed yet.
  ['while the new data set is being published', /Publishing/],
])(
  'SIGKILL %s leaves the previous data served, whole',
  async (_when, phase) => {
    const before = servedChecksum(data.file);
    expect(before.integrity).toBe('ok');
    const { child, done } = startCli('import', ['branches', bigFile, '--allow-removals'], data.dir);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    await until(() => phase.test(stderr) || child.exitCode !== null, `the phase ${phase}`);
    child.kill('SIGKILL');
    const run = await done;
    expect(run.signal, run.stdout + run.stderr).toBe('SIGKILL');
    expect(run.stdout).not.toContain('applied');

    // The service opens the store as it would after the crash and serves the old Bangladesh branches.
    const t = await createTestApp({ store: SqliteStore.open(data.file) });
    try {
      const res = await t.get('/v1/banks/branches', {
        receivingCountry: 'BD',
        deliveryMode: '04',
        receivingAgentHeadOfficeCode: 'BRACBD',
        pageSize: '1000',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().pagination.totalItems).toBe(10_026);
      expect(res.json().data.some((b: { branchName: string }) => b.branchName.includes('KILLED'))).toBe(false);
    } finally {
      await t.close();
    }
    expect(servedChecksum(data.file)).toEqual(before);
  },
  600_000,
);
