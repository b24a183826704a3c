import type { OpsAccount, OpsRole } from '../../contract/ops-auth';
import type { AccountChange, OpsAccountRecord, OpsAccountStore } from '../store/ops-accounts';
import { hashPassword } from './passwords';
import { checkPassword } from './password-policy';

// Account management shared by `npm run ops-user` (scripts/ops-user.ts) and the admin's /v1/ops/accounts
// routes: one place checks passwords against the policy (WeakPasswordError), hashes them and says what an
// account looks like outside the server.

/** The account as the API and the command show it: never the password hash. */
export const publicAccount = (account: OpsAccountRecord): OpsAccount => ({
  name: account.name,
  roles: account.roles,
  disabled: account.disabled,
  createdAt: new Date(account.createdAt).toISOString(),
  updatedAt: new Date(account.updatedAt).toISOString(),
});

/** Creates an account (AccountExistsError when the name is taken, WeakPasswordError for a weak password). */
export async function addAccount(
  accounts: OpsAccountStore,
  input: { name: string; roles: OpsRole[]; password: string },
  now = Date.now(),
): Promise<OpsAccount> {
  await checkPassword(input.password, input.name);
  const record: Omit<OpsAccountRecord, 'updatedAt'> = {
    name: input.name,
    roles: [...new Set(input.roles)],
    passwordHash: await hashPassword(input.password),
    disabled: false,
    createdAt: now,
  };
  await accounts.addAccount(record);
  return publicAccount({ ...record, updatedAt: now });
}

/** Changes roles, disables/enables or sets a new password (WeakPasswordError); null when there is no such account. */
export async function changeAccount(
  accounts: OpsAccountStore,
  name: string,
  input: { roles?: OpsRole[]; disabled?: boolean; password?: string },
  now = Date.now(),
): Promise<OpsAccount | null> {
  const change: AccountChange = {};
  if (input.roles) change.roles = [...new Set(input.roles)];
  if (input.disabled !== undefined) change.disabled = input.disabled;
  if (input.password !== undefined) {
    await checkPassword(input.password, name);
    change.passwordHash = await hashPassword(input.password);
  }
  if (!(await accounts.updateAccount(name, change, now))) return null;
  const account = await accounts.account(name);
  return account ? publicAccount(account) : null;
}
