import {
  accountPathParams,
  createAccountBody,
  opsAccount,
  opsAccountList,
  updateAccountBody,
} from '../../../../contract/ops-auth';
import { addAccount, changeAccount, publicAccount } from '../../../desk/accounts';
import { ProblemError } from '../../../problems';
import { AccountExistsError } from '../../../store/ops-accounts';
import { defineOpsOperation } from './ops-operation';

// The admin's account management (the same as `npm run ops-user`, desk/accounts.ts). Every change is audited
// (action "account"); passwords go in, never out.
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
      'A new account with its roles and first password (at least 12 characters); 409 when the name is taken.',
    access: 'admin',
    body: createAccountBody,
    response: opsAccount,
    status: 201,
    errors: [{ status: 409, description: 'Conflict: an account of that name exists.' }],
    async handle({ app, request, actor, body }) {
      try {
        const account = await addAccount(app.opsAccounts, body, app.opsAuth.now());
        await app.opsAuth.record(request, {
          actor: actor.name,
          via: actor.via,
          action: 'account',
          target: account.name,
          detail: { change: 'add', roles: account.roles },
        });
        return account;
      } catch (error) {
        if (error instanceof AccountExistsError) throw new ProblemError('conflict', error.message);
        throw error;
      }
    },
  }),
  defineOpsOperation({
    method: 'PATCH',
    path: '/v1/ops/accounts/{name}',
    operationId: 'updateOpsAccount',
    summary: 'Change an ops account (admin)',
    description:
      'New roles, disabled true/false, or a new password. Disabling an account or setting its password ends its sessions. An admin cannot disable their own account or take away their own admin role (another admin must).',
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
      const account = await changeAccount(app.opsAccounts, params.name, body, app.opsAuth.now());
      if (!account) throw new ProblemError('notFound', `There is no ops account named ${params.name}.`);
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
        detail: { change: changes.join(','), roles: account.roles, disabled: account.disabled },
      });
      return account;
    },
  }),
];
