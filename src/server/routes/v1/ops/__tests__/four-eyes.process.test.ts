import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { changeSummary, type ChangeSummary } from '../../../../../contract/ops-changes';
import { addAccount } from '../../../../desk/accounts';
import { hashApiKey } from '../../../../auth/credentials';
import { opsAccountsOf } from '../../../../store/ops-accounts';
import { SqliteStore } from '../../../../store/sqlite/sqlite-store';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import { runCli, seededDataDir } from '../../../../../testing/import-cli';
import { createOpsAccount, OPS_PASSWORD, OPS_TEST_CREATOR, signIn } from '../../../../../testing/ops';
import { editedBangladesh, writeBranchFile } from '../../../../desk/__tests__/fixtures';

// Four eyes across identities, through the real app on both stores: an account and the API keys issued to the
// same holder are one person, and an approver the change's maker stands behind (created, set the password of,
// made a checker, issued a key to) cannot approve it.

const KEYS = {
  // Issued to alice, who also has an account: her second identity.
  aliceChecker: 'four-eyes-alice-checker-0123456789abcdef0123',
  aliceMaker: 'four-eyes-alice-maker-0123456789abcdef012345',
  // Issued by root (scripts/api-key.ts records the shell user) to someone else.
  kimByRoot: 'four-eyes-kim-by-root-0123456789abcdef012345',
};

describe.each(testEngines())('four eyes across identities (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let files = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-four-eyes-'));
    t = await createTestApp({
      engine,
      uploads: { dir: join(dir, 'uploads') },
      ops: {
        apiKeys: new Map([
          [hashApiKey(KEYS.aliceChecker), { holder: 'alice', roles: ['checker'] }],
          [hashApiKey(KEYS.aliceMaker), { holder: 'Alice', roles: ['maker'] }],
          [hashApiKey(KEYS.kimByRoot), { holder: 'kim', roles: ['checker'], issuedBy: 'root' }],
        ]),
      },
    });
    await createOpsAccount(t.app, 'alice', ['maker', 'checker']);
    await createOpsAccount(t.app, 'bob', ['checker']);
    await createOpsAccount(t.app, 'carol', ['checker']);
    await createOpsAccount(t.app, 'dave', ['maker']);
    await createOpsAccount(t.app, 'root', ['admin']);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  /** Uploads a Bangladesh branch file (a new edit each time) and waits until it is staged. */
  async function stage(headers: Record<string, string>): Promise<ChangeSummary> {
    const name = `bd-${++files}.csv`;
    const form = new FormData();
    form.append('kind', 'branches');
    form.append(
      'file',
      new Blob([readFileSync(writeBranchFile(dir, name, editedBangladesh(1, `EDIT ${files}`)))]),
      name,
    );
    // The platform writes the multipart body and its boundary.
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/changes',
      headers: { ...headers, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(response.statusCode).toBe(202);
    const { id } = changeSummary.parse(response.json());
    for (let i = 0; i < 600; i++) {
      const change = await t.app.desk.get(id);
      if (change.status !== 'validating') {
        expect(change).toMatchObject({ status: 'staged', approvable: true });
        return change;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`change ${id} is still validating`);
  }

  const post = (id: string, action: 'approve' | 'discard', headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/v1/ops/changes/${id}/${action}`, headers, payload: {} });

  const refused = async (id: string, headers: Record<string, string>, detail: RegExp) => {
    const response = await post(id, 'approve', headers);
    expect(response.statusCode).toBe(403);
    expect(problem.parse(response.json()).detail).toMatch(detail);
    expect((await t.app.desk.get(id)).status).toBe('staged');
  };

  const patchAccount = (headers: Record<string, string>, name: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/v1/ops/accounts/${name}`, headers, payload });

  it("a key issued to the maker cannot approve the maker's change: an account and its holder's keys are one person", async () => {
    const alice = await signIn(t.app, 'alice');
    const change = await stage(alice.headers);
    expect(change.stagedBy).toBe('alice');
    await refused(change.id, bearer(KEYS.aliceChecker), /maker of a change cannot approve it/);
    const bob = await signIn(t.app, 'bob');
    const approved = await post(change.id, 'approve', bob.headers);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'published', stagedBy: 'alice', decidedBy: 'bob' });
  });

  it("the maker's account cannot approve what the maker staged with a key, and may discard it", async () => {
    const change = await stage(bearer(KEYS.aliceMaker));
    expect(change.stagedBy).toBe('key:Alice');
    const alice = await signIn(t.app, 'alice');
    await refused(change.id, alice.headers, /maker of a change cannot approve it/);
    // "Only the maker discards" is the person too.
    const discarded = await post(change.id, 'discard', alice.headers);
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json()).toMatchObject({ status: 'discarded', decidedBy: 'alice' });
  });

  it('an admin who makes itself a maker cannot have its change approved by a checker it created, made or can sign in as', async () => {
    const root = await signIn(t.app, 'root');
    expect((await patchAccount(root.headers, 'root', { roles: ['admin', 'maker'] })).statusCode).toBe(200);
    const change = await stage((await signIn(t.app, 'root')).headers);
    expect(change.stagedBy).toBe('root');
    const admin = await signIn(t.app, 'root');

    // A checker account root creates.
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/accounts',
      headers: admin.headers,
      payload: { name: 'puppet', roles: ['checker'], password: OPS_PASSWORD },
    });
    expect(created.statusCode).toBe(201);
    await refused(
      change.id,
      (await signIn(t.app, 'puppet')).headers,
      /puppet cannot approve this change: its maker created this account/,
    );
    // A maker root makes a checker.
    expect((await patchAccount(admin.headers, 'dave', { roles: ['maker', 'checker'] })).statusCode).toBe(200);
    await refused(change.id, (await signIn(t.app, 'dave')).headers, /its maker granted this checker role/);
    // A checker whose password root sets.
    expect((await patchAccount(admin.headers, 'carol', { password: `${OPS_PASSWORD} new` })).statusCode).toBe(200);
    await refused(
      change.id,
      (await signIn(t.app, 'carol', `${OPS_PASSWORD} new`)).headers,
      /its maker set this account's password/,
    );
    // A checker key root issued.
    await refused(change.id, bearer(KEYS.kimByRoot), /key:kim cannot approve this change: its maker issued this key/);

    // A checker root does not stand behind approves.
    const approved = await post(change.id, 'approve', (await signIn(t.app, 'bob')).headers);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'published', stagedBy: 'root', decidedBy: 'bob' });

    // Role grants are audited with their grantor.
    const audit = await t.app.inject({
      method: 'GET',
      url: '/v1/ops/audit?action=account&pageSize=100',
      headers: { cookie: admin.cookie },
    });
    const events = (audit.json() as { data: { actor: string; target: string; detail: Record<string, unknown> }[] })
      .data;
    expect(events.find((e) => e.target === 'dave')).toMatchObject({
      actor: 'root',
      detail: { granted: ['checker'], revoked: [], grantedBy: 'root' },
    });
    expect(events.find((e) => e.target === 'puppet')).toMatchObject({
      actor: 'root',
      detail: { change: 'add', granted: ['checker'], grantedBy: 'root' },
    });
  });

  it('the store records who created an account, set its password and granted each role', async () => {
    const root = await signIn(t.app, 'root');
    const dave = await t.app.opsAccounts.account('dave');
    expect(dave).toMatchObject({
      createdBy: OPS_TEST_CREATOR,
      passwordSetBy: OPS_TEST_CREATOR,
      grants: { maker: { by: OPS_TEST_CREATOR }, checker: { by: 'root' } },
    });
    expect((await t.app.opsAccounts.account('carol'))!.passwordSetBy).toBe('root');
    expect((await t.app.opsAccounts.account('puppet'))!.createdBy).toBe('root');
    // A role taken away loses its grant; one kept keeps its grantor; granted again, it has its new grantor.
    expect((await patchAccount(root.headers, 'dave', { roles: ['checker'] })).statusCode).toBe(200);
    expect((await t.app.opsAccounts.account('dave'))!.grants).toEqual({ checker: dave!.grants.checker });
    const accounts = await t.app.opsAccounts.accounts();
    expect(accounts.find((a) => a.name === 'dave')!.grants).toEqual({ checker: dave!.grants.checker });
  });
});

describe('four eyes: npm run ops-user', () => {
  it('records the shell user as the grantor of the roles it sets', async () => {
    const data = seededDataDir();
    try {
      let store = SqliteStore.open(data.file);
      await addAccount(opsAccountsOf(store), { name: 'erin', roles: ['maker'], password: OPS_PASSWORD }, 'root');
      await store.close();
      const run = await runCli('ops-user', ['set-role', 'erin', '--role', 'maker', '--role', 'checker'], data.dir);
      expect(run.code, run.stderr).toBe(0);
      store = SqliteStore.open(data.file);
      const erin = await opsAccountsOf(store).account('erin');
      await store.close();
      expect(erin!.grants).toMatchObject({ maker: { by: 'root' }, checker: { by: userInfo().username } });
    } finally {
      data.remove();
    }
  });
});
