import { execFileSync } from 'node:child_process';

/**
 * The server's process tests run the compiled program `npm start` runs (dist/server): this builds it when the
 * sources changed since dist/ was built (scripts/build.ts --if-changed), as `npm start` does; else nothing.
 */
export default function setup() {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-changed'], { stdio: 'inherit' });
}
