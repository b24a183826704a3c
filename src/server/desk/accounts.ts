import type { OpsAccount, OpsRole } from '../../contract/ops-auth';
import type { AccountChange, NewOpsAccount, OpsAccountRecord, OpsAccountStore } from '../store/ops-accounts';
import type { OpsProvenance } from './desk';
import { hashPassword } from './passwords';
import { checkPassword } from './password-policy';

// Account management shared by `npm run ops-user` (scripts/ops-user.ts) and the admin's /v1/ops/accounts
// routes: one place checks passwords against the policy (WeakPasswordError), hashes them and says what an
// account looks like outside the server.

/** The account as the API and the command show it: never the password hash. */
export const publicAccount = (
  account: Pick<OpsAccountRecord, 'name' | 'roles' | 'disabled' | 'createdAt' | 'updatedAt'>,
): OpsAccount => ({
  name: account.name,
  roles: account.roles,
  disabled: account.disabled,
  createdAt: new Date(account.createdAt).toISOString(),
  updatedAt: new Date(account.updatedAt).toISOString(),
});

/** Who stands behind the account, for four eyes (desk.ts, checkFourEyes). */
export const provenanceOf = (account: OpsAccountRecord): OpsProvenance => ({
  createdBy: account.createdBy,
  passwordSetBy: account.passwordSetBy,
  grantedBy: Object.fromEntries(Object.entries(account.grants).map(([role, grant]) => [role, grant?.by ?? null])),
});

/**
 * Creates an account (AccountExistsError when the name is taken, WeakPasswordError for a weak password). `by`
 * (an ops account, or the shell user of `npm run ops-user`) is recorded as its creator, the grantor of its roles
 * and the setter of its password.
 */
export async function addAccount(
  accounts: OpsAccountStore,
  input: { name: string; roles: OpsRole[]; password: string },
  by: string,
  now = Date.now(),
): Promise<OpsAccount> {
  await checkPassword(input.password, input.name);
  const record: NewOpsAccount = {
    name: input.name,
    roles: [...new Set(input.roles)],
    passwordHash: await hashPassword(input.password),
    disabled: false,
    createdAt: now,
    createdBy: by,
  };
  await accounts.addAccount(record);
  return publicAccount({ ...record, updatedAt: now });
}

/**
 * Changes roles, disables/enables or sets a new password (WeakPasswordError); null when there is no such
 * account. `by` is recorded as the grantor of each role the account did not hold, and as the setter of a new
 * password.
 */
export async function changeAccount(
  accounts: OpsAccountStore,
  name: string,
  input: { roles?: OpsRole[]; disabled?: boolean; password?: string },
  by: string,
  now = Date.now(),
): Promise<OpsAccount | null> {
  const change: AccountChange = { by };
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
