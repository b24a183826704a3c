import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../src/server/plugins/app/access';

// Issues a new API key: prints the key (hand it to the correspondent, once) and the entry for API_KEYS_FILE,
// which holds only the key's hash.  Usage: npx tsx scripts/api-key.ts <holder> <correspondent id>...
const [holder, ...correspondents] = process.argv.slice(2);
if (!holder || correspondents.length === 0) {
  console.error('usage: npx tsx scripts/api-key.ts <holder> <correspondent id>...');
  process.exit(2);
}
const key = randomBytes(32).toString('base64url');
console.log(`API key (give to ${holder}; it is not stored): ${key}`);
console.log('Entry for API_KEYS_FILE "keys":');
console.log(JSON.stringify({ holder, sha256: hashApiKey(key), correspondents }, null, 2));
