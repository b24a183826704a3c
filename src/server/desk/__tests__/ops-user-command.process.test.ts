import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { PgStore } from '../../store/postgres/pg-store';
import type { LookupStore } from '../../store/store';
import { opsAccountsOf } from '../../store/ops-accounts';
import { createTestPostgresDatabase, testEngines } from '../../../testing/test-app';
import { runCli, seededDataDir, type DataDir } from '../../../testing/import-cli';
import { DeskEngine } from '../engine';
import { verifyPassword } from '../passwords';

// `npm run ops-user` as an operator runs it: a real child process on a real store (SQLite file or PostgreSQL).
// Its account changes go to the desk's audit trail under the shell user's name, as `npm run import` does, and
// its passwords meet the same policy as the admin's routes.

const shellUser = userInfo().username;

describe.each(testEngines())('npm run ops-user (%s)', (engine) => {
  let data: DataDir;
  let postgres: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    data = seededDataDir();
    if (engine === 'postgres') postgres = await createTestPostgresDatabase();
  });
  afterAll(async () => {
    data.remove();
    await postgres?.drop();
  });

  const opsUser = (args: string[], input?: string) =>
    runCli('ops-user', args, data.dir, { databaseUrl: postgres?.url, input });

  async function withStore<T>(use: (store: LookupStore) => Promise<T>): Promise<T> {
    const store = postgres ? PgStore.open({ connectionString: postgres.url }) : SqliteStore.open(data.file);
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  }

  const accountAudit = () =>
    withStore(async (store) =>
      (await new DeskEngine(store).audit({ action: 'account', pageNumber: 1, pageSize: 50 })).data.reverse(),
    );

  it('add, set-role, password, disable and enable are audited under the shell user’s name', async () => {
    const steps: [string[], string | undefined][] = [
      [['add', 'carol', '--role', 'maker', '--password-stdin'], 'correct horse battery staple\n'],
      [['set-role', 'carol', '--role', 'checker', '--role', 'maker'], undefined],
      [['password', 'carol', '--password-stdin'], 'another long pass phrase for carol\n'],
      [['disable', 'carol'], undefined],
      [['enable', 'carol'], undefined],
    ];
    for (const [args, input] of steps) {
      const run = await opsUser(args, input);
      expect(run.code, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
    }
    const audit = await accountAudit();
    expect(audit.map((a) => [a.actor, a.via, a.action, a.target, a.detail?.change])).toEqual([
      [shellUser, 'shell', 'account', 'carol', 'add'],
      [shellUser, 'shell', 'account', 'carol', 'roles'],
      [shellUser, 'shell', 'account', 'carol', 'password'],
      [shellUser, 'shell', 'account', 'carol', 'disable'],
      [shellUser, 'shell', 'account', 'carol', 'enable'],
    ]);
    expect(audit[0].detail).toEqual({ change: 'add', roles: ['maker'], granted: ['maker'], grantedBy: shellUser });
    expect(audit[1].detail).toEqual({
      change: 'roles',
      roles: ['checker', 'maker'],
      disabled: false,
      granted: ['checker'],
      revoked: [],
      grantedBy: shellUser,
    });
    expect(audit[3].detail).toEqual({ change: 'disable', roles: ['checker', 'maker'], disabled: true });
    // Never the password.
    expect(JSON.stringify(audit)).not.toMatch(/horse|pass phrase|scrypt/);
    await withStore(async (store) => {
      const carol = await opsAccountsOf(store).account('carol');
      expect(carol).toMatchObject({ roles: ['checker', 'maker'], disabled: false });
      expect(await verifyPassword('another long pass phrase for carol', carol!.passwordHash)).toBe(true);
    });
  }, 120_000);

  it('refuses a common, repeated or sequential password and the account name, and changes nothing', async () => {
    const weak: [string, RegExp][] = [
      ['passwordpassword', /too easy to guess: it repeats a short pattern/],
      ['123456789012', /too easy to guess: it is a common password/],
      [' '.repeat(12), /too easy to guess: it repeats one character/],
      ['daviddaviddavid', /must not be the account name/],
    ];
    for (const [password, reason] of weak) {
      const run = await opsUser(['add', 'david', '--role', 'checker', '--password-stdin'], `${password}\n`);
      expect(run.code, JSON.stringify(password)).toBe(2);
      expect(run.stderr).toMatch(reason);
      expect(run.stderr).toContain('Nothing changed.');
    }
    const before = await withStore(async (store) => {
      expect(await opsAccountsOf(store).account('david')).toBeNull();
      return (await opsAccountsOf(store).account('carol'))!.passwordHash;
    });
    const reset = await opsUser(['password', 'carol', '--password-stdin'], 'passwordpassword\n');
    expect(reset.code).toBe(2);
    expect(reset.stderr).toMatch(/The password is too easy to guess/);
    await withStore(async (store) => {
      expect((await opsAccountsOf(store).account('carol'))!.passwordHash).toBe(before);
    });
    expect((await accountAudit()).filter((a) => a.target === 'david' || a.detail?.change === 'password')).toHaveLength(
      1,
    );
  }, 120_000);
});
