import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// Builds the portal (vite → dist/portal) and the server (esbuild → dist/server). With --if-changed (what
// `npm start` runs) it builds only when the sources differ from those dist/ was built from: a second start of
// the same checkout starts the server at once. The stamp is a SHA-256 over every input file's path and bytes.
// Usage: npm run build                 (always builds)
//        tsx scripts/build.ts --if-changed

const root = process.cwd();
const INPUTS = [
  'src',
  'scripts',
  'public',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const STAMP = join(root, 'dist', 'build-stamp.txt');
/** Tests and test setup do not go into dist/. */
const NOT_BUILT = /(^|\/)(__tests__|testing)(\/|$)/;

function files(path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => files(join(path, entry.name)));
}

function sourceStamp(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files).filter((f) => !NOT_BUILT.test(relative(root, join(root, f))))) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function main() {
  const stamp = sourceStamp();
  const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
  if (process.argv.includes('--if-changed') && built === stamp && existsSync(join(root, 'dist', 'server', 'main.js'))) {
    console.log('dist/ is built from these sources; not building again.');
    return;
  }
  execSync('npm run build:portal && npm run build:server', { stdio: 'inherit' });
  writeFileSync(STAMP, `${stamp}\n`);
}

main();
