import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { OPS_ROLES, opsAccountName, opsPassword, opsRole, type OpsRole } from '../src/contract/ops-auth';
import { addAccount, changeAccount, publicAccount } from '../src/server/desk/accounts';
import { recordOpsEvent } from '../src/server/desk/engine';
import { WeakPasswordError } from '../src/server/desk/password-policy';
import { openConfiguredStore } from '../src/server/open-store';
import { opsAccountsOf } from '../src/server/store/ops-accounts';

// `npm run ops-user -- <command>`: the operations desk's accounts in the configured store (DATA_DIR's SQLite
// file or DATABASE_URL's PostgreSQL, as the server). Passwords are read from the terminal without echo, or
// from standard input with --password-stdin (one line), never from the command line (it would sit in the shell
// history and the process list); they are never printed. Every change (add, set-role, disable, enable,
// password) goes to the desk's audit trail as action "account" under the shell user's name (via "shell"), as
// `npm run import` does, with the same detail as the admin's routes. A password is checked against the policy
// (desk/password-policy.ts) before anything changes.
const USAGE = `usage: npm run ops-user -- <command>
  add <name> --role <maker|checker|admin> [--role …] [--password-stdin]
  list
  roles <name>                          the account's roles
  set-role <name> --role <role> [--role …]   replace the account's roles
  disable <name> | enable <name>        disabling ends the account's sessions
  password <name> [--password-stdin]    set a new password (ends its sessions)`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** One line from the terminal, typed without echo. */
async function promptHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY) fail('No terminal to ask the password on: pipe it with --password-stdin.');
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    process.stderr.write(question);
    muted = true;
    return await new Promise<string>((resolve) => rl.question('', resolve));
  } finally {
    muted = false;
    process.stderr.write('\n');
    rl.close();
  }
}

async function readStdinLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function newPassword(fromStdin: boolean): Promise<string> {
  let password: string;
  if (fromStdin) password = await readStdinLine();
  else {
    password = await promptHidden('New password: ');
    if ((await promptHidden('Again: ')) !== password) fail('The two passwords differ; nothing changed.');
  }
  const checked = opsPassword.safeParse(password);
  if (!checked.success) fail(`The password ${checked.error.issues[0].message}; nothing changed.`);
  return checked.data;
}

function rolesOf(values: string[] | undefined): OpsRole[] {
  if (!values || values.length === 0) fail(`Give at least one --role (${OPS_ROLES.join(', ')}).\n${USAGE}`);
  return values.map((value) => {
    const role = opsRole.safeParse(value);
    if (!role.success) fail(`Unknown role "${value}": one of ${OPS_ROLES.join(', ')}.`);
    return role.data;
  });
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      role: { type: 'string', multiple: true },
      'password-stdin': { type: 'boolean', default: false },
      password: { type: 'string' },
    },
  });
  if (values.password !== undefined) {
    fail('A password is never given on the command line: type it when asked, or pipe it with --password-stdin.');
  }
  const [command, rawName] = positionals;
  if (!command) fail(USAGE);
  const name = rawName === undefined ? undefined : opsAccountName.safeParse(rawName);
  if (command !== 'list' && (!name || !name.success)) {
    fail(name && !name.success ? `Account name ${name.error.issues[0].message}.` : USAGE);
  }
  const account = name?.success ? name.data : '';

  const store = await openConfiguredStore();
  const accounts = opsAccountsOf(store);
  // The operator at the shell, as `npm run import` names them: the actor of the audit rows, and the creator of an
  // account, the grantor of its roles and the setter of its password (four eyes).
  const who = userInfo().username;
  const audit = (target: string, detail: Record<string, unknown>) =>
    recordOpsEvent(store, { actor: who, via: 'shell', action: 'account', target, detail });
  try {
    switch (command) {
      case 'add': {
        const roles = rolesOf(values.role);
        if (await accounts.account(account)) fail(`An account named ${account} already exists.`);
        const password = await newPassword(values['password-stdin']);
        const added = await addAccount(accounts, { name: account, roles, password }, who);
        await audit(added.name, { change: 'add', roles: added.roles, granted: added.roles, grantedBy: who });
        console.log(`Added ${added.name} (${added.roles.join(', ')}) by ${who}.`);
        break;
      }
      case 'list': {
        for (const a of (await accounts.accounts()).map(publicAccount)) {
          console.log(`${a.name}\t${a.roles.join(',')}\t${a.disabled ? 'disabled' : 'active'}\t${a.updatedAt}`);
        }
        break;
      }
      case 'roles': {
        const found = await accounts.account(account);
        if (!found) fail(`There is no account named ${account}.`);
        console.log(found.roles.join(' '));
        break;
      }
      case 'set-role':
      case 'disable':
      case 'enable':
      case 'password': {
        const change =
          command === 'set-role'
            ? { roles: rolesOf(values.role) }
            : command === 'password'
              ? { password: await newPassword(values['password-stdin']) }
              : { disabled: command === 'disable' };
        const before = await accounts.account(account);
        const changed = await changeAccount(accounts, account, change, who);
        if (!before || !changed) fail(`There is no account named ${account}.`);
        const grants = command === 'set-role' && {
          granted: changed.roles.filter((role) => !before.roles.includes(role)),
          revoked: before.roles.filter((role) => !changed.roles.includes(role)),
          grantedBy: who,
        };
        await audit(changed.name, {
          change: command === 'set-role' ? 'roles' : command,
          roles: changed.roles,
          disabled: changed.disabled,
          ...grants,
        });
        console.log(
          `${changed.name}: ${command === 'password' ? 'password set' : `${changed.roles.join(', ')}, ${changed.disabled ? 'disabled' : 'active'}`}.`,
        );
        break;
      }
      default:
        fail(USAGE);
    }
  } catch (error) {
    if (error instanceof WeakPasswordError) fail(`${error.message} Nothing changed.`);
    throw error;
  } finally {
    await store.close();
  }
}

main().catch((error: Error) => {
  console.error(`ops-user failed: ${error.message}`);
  process.exit(1);
});
