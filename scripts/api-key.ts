import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { hashApiKey } from '../src/server/auth/credentials';

// Issues a new API key: prints the key (hand it to the correspondent, once) and the entry for API_KEYS_FILE,
// which holds only the key's hash.  Usage: npx tsx scripts/api-key.ts <holder> [<correspondent id>...]
// [--ops-role maker|checker|admin ...]: a key with ops roles may act on the operations desk (/v1/ops). The entry
// names the shell user as its issuer: a change that person makes cannot be approved with the key (four eyes).
const args = process.argv.slice(2);
const opsRoles: string[] = [];
const positional: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--ops-role') opsRoles.push(args[++i] ?? '');
  else positional.push(args[i]);
}
const [holder, ...correspondents] = positional;
if (
  !holder ||
  (correspondents.length === 0 && opsRoles.length === 0) ||
  opsRoles.some((r) => !['maker', 'checker', 'admin'].includes(r))
) {
  console.error(
    'usage: npx tsx scripts/api-key.ts <holder> [<correspondent id>...] [--ops-role maker|checker|admin]...',
  );
  process.exit(2);
}
const key = randomBytes(32).toString('base64url');
console.log(`API key (give to ${holder}; it is not stored): ${key}`);
console.log('Entry for API_KEYS_FILE "keys":');
console.log(
  JSON.stringify(
    {
      holder,
      sha256: hashApiKey(key),
      correspondents,
      ...(opsRoles.length > 0 ? { opsRoles } : {}),
      issuedBy: userInfo().username,
    },
    null,
    2,
  ),
);
