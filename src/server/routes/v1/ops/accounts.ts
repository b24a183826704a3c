import {
  accountPathParams,
  createAccountBody,
  opsAccount,
  opsAccountList,
  updateAccountBody,
} from '../../../../contract/ops-auth';
import { addAccount, changeAccount, publicAccount } from '../../../desk/accounts';
import { WeakPasswordError } from '../../../desk/password-policy';
import { ProblemError } from '../../../problems';
import { AccountExistsError } from '../../../store/ops-accounts';
import { defineOpsOperation } from './ops-operation';

// The admin's account management (the same as `npm run ops-user`, desk/accounts.ts). Every change is audited
// (action "account", with the roles granted and taken away and who by); passwords go in, never out. The admin
// acting is recorded as the account's creator, the grantor of its new roles and the setter of its password: an
// approver an admin stands behind cannot approve that admin's changes (four eyes, desk.ts).

/** A password the policy refuses (desk/password-policy.ts) is a 400 on the body's password, like a short one. */
function asProblem(error: unknown): unknown {
  if (error instanceof WeakPasswordError) {
    return new ProblemError('invalidRequest', error.message, [{ name: 'password', in: 'body', message: error.reason }]);
  }
  return error;
}

export const accountOperations = [
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/accounts',
    operationId: 'listOpsAccounts',
    summary: 'List ops accounts (admin)',
    description: 'Every ops account with its roles and whether it is disabled.',
    access: 'admin',
    response: opsAccountList,
    async handle({ app }) {
      return { data: (await app.opsAccounts.accounts()).map(publicAccount) };
    },
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/accounts',
    operationId: 'createOpsAccount',
    summary: 'Create an ops account (admin)',
    description:
      'A new account with its roles and first password (at least 12 characters, not a common or easily guessed password, not the account name with a few characters added: 400 otherwise); 409 when the name is taken.',
    access: 'admin',
    body: createAccountBody,
    response: opsAccount,
    status: 201,
    errors: [{ status: 409, description: 'Conflict: an account of that name exists.' }],
    async handle({ app, request, actor, body }) {
      try {
        const account = await addAccount(app.opsAccounts, body, actor.name, app.opsAuth.now());
        await app.opsAuth.record(request, {
          actor: actor.name,
          via: actor.via,
          action: 'account',
          target: account.name,
          detail: { change: 'add', roles: account.roles, granted: account.roles, grantedBy: actor.name },
        });
        return account;
      } catch (error) {
        if (error instanceof AccountExistsError) throw new ProblemError('conflict', error.message);
        throw asProblem(error);
      }
    },
  }),
  defineOpsOperation({
    method: 'PATCH',
    path: '/v1/ops/accounts/{name}',
    operationId: 'updateOpsAccount',
    summary: 'Change an ops account (admin)',
    description:
      'New roles, disabled true/false, or a new password (the same rules as at creation). Disabling an account or setting its password ends its sessions. An admin cannot disable their own account or take away their own admin role (another admin must).',
    access: 'admin',
    params: accountPathParams,
    body: updateAccountBody,
    response: opsAccount,
    errors: [
      { status: 404, description: 'Not found: no account of that name.' },
      { status: 409, description: 'Conflict: an admin locking themselves out.' },
    ],
    async handle({ app, request, actor, params, body }) {
      if (params.name === actor.name && (body.disabled === true || (body.roles && !body.roles.includes('admin')))) {
        throw new ProblemError('conflict', 'An admin cannot disable their own account or drop their own admin role.');
      }
      const before = await app.opsAccounts.account(params.name);
      const account =
        before &&
        (await changeAccount(app.opsAccounts, params.name, body, actor.name, app.opsAuth.now()).catch((error) => {
          throw asProblem(error);
        }));
      if (!account) throw new ProblemError('notFound', `There is no ops account named ${params.name}.`);
      const grants = body.roles && {
        granted: account.roles.filter((role) => !before.roles.includes(role)),
        revoked: before.roles.filter((role) => !account.roles.includes(role)),
        grantedBy: actor.name,
      };
      const changes = [
        ...(body.roles ? ['roles'] : []),
        ...(body.disabled === undefined ? [] : [body.disabled ? 'disable' : 'enable']),
        ...(body.password === undefined ? [] : ['password']),
      ];
      await app.opsAuth.record(request, {
        actor: actor.name,
        via: actor.via,
        action: 'account',
        target: account.name,
        detail: { change: changes.join(','), roles: account.roles, disabled: account.disabled, ...grants },
      });
      return account;
    },
  }),
];
