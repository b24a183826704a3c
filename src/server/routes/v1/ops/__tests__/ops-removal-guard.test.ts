import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import type { ChangeDetail } from '../../../../../contract/ops-changes';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import {
  createOpsAccount,
  multipartUpload,
  signIn,
  stageUpload,
  type OpsSessionCookie,
} from '../../../../../testing/ops';
import { shippedBangladesh, writeBranchFile } from '../../../../desk/__tests__/fixtures';

// The removal guard counts across changes: removals add up against the last version whose removals a checker
// confirmed (or the one in force 7 days back), per country, so Bangladesh cannot lose over 20 % of its branches
// in steps that each stay under it. Through the real app on both stores: uploads, the report, approvals.

const SHIPPED = shippedBangladesh();
const BD_BRANCHES = SHIPPED.length;

describe.each(testEngines())('the removal guard across changes (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let maker: OpsSessionCookie;
  let checker: OpsSessionCookie;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-guard-'));
    t = await createTestApp({ engine, uploads: { dir: join(dir, 'uploads') } });
    await createOpsAccount(t.app, 'alice', ['maker']);
    await createOpsAccount(t.app, 'bob', ['checker']);
    maker = await signIn(t.app, 'alice');
    checker = await signIn(t.app, 'bob');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Stages Bangladesh's shipped branches without the first `from` (removed); waits for its report. */
  const stageBangladeshFrom = (from: number) => {
    const name = `bd-from-${from}.csv`;
    const file = readFileSync(writeBranchFile(dir, name, SHIPPED.slice(from)));
    return stageUpload(t.app, maker, checker, multipartUpload({ kind: 'branches' }, name, file));
  };

  const approve = (id: string, confirmRemovals: boolean) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${id}/approve`,
      headers: checker.headers,
      payload: { comment: 'checked', confirmRemovals },
    });

  const countryFlag = (change: ChangeDetail) =>
    change.diff!.guard.flags.filter((f) => f.scope === 'country').map((f) => [f.country, f.removed, f.served]);

  it('two changes of about 15 % each: the second is flagged and needs confirmRemovals; then the count starts at the confirmed version', async () => {
    // 1. 15 % of Bangladesh's branches: under the guard, approved without a confirmation.
    const first = await stageBangladeshFrom(1500);
    expect(first).toMatchObject({ status: 'staged', approvable: true });
    expect(first.diff!.counts.removed).toBe(1500);
    expect(first.diff!.guard.flagged).toBe(false);
    expect((await approve(first.id, false)).statusCode).toBe(200);

    // 2. 1,500 more: 17.6 % of what is served now, but 29.9 % of what was served before the first change.
    const second = await stageBangladeshFrom(3000);
    expect(second.diff!.counts.removed).toBe(1500);
    expect(second.diff!.guard.flagged).toBe(true);
    expect(countryFlag(second)).toEqual([['BD', 3000, BD_BRANCHES]]);
    const refused = await approve(second.id, false);
    expect(refused.statusCode).toBe(422);
    expect(problem.parse(refused.json()).detail).toContain(
      `3000 of ${BD_BRANCHES} branches of BD (29.9 %; 1500 by earlier changes)`,
    );
    expect((await approve(second.id, true)).statusCode).toBe(200);

    // 3. The checker confirmed: 1,000 more is 14.2 % of what the confirmed version served, under the guard.
    const third = await stageBangladeshFrom(4000);
    expect(third.diff!.guard.flagged).toBe(false);
    expect((await approve(third.id, false)).statusCode).toBe(200);

    // 4. 500 more: 1,500 since the confirmed version's 7,026 (21.3 %), flagged again.
    const fourth = await stageBangladeshFrom(4500);
    expect(countryFlag(fourth)).toEqual([['BD', 1500, BD_BRANCHES - 3000]]);
    expect((await approve(fourth.id, false)).statusCode).toBe(422);
  }, 300_000);
});
