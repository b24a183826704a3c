import { execFileSync } from 'node:child_process';

/**
 * The server's process tests run the compiled program `npm start` runs (dist/server): this builds it when the
 * sources changed since dist/ was built (scripts/build.ts --if-changed), as `npm start` does; else nothing.
 * The build gets the environment a user's shell gives it, not Vitest's: with Vitest's NODE_ENV=test, Vite
 * would bundle React's development build into the portal that `npm start` and the e2e suite then serve.
 */
export default function setup() {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')),
  );
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-changed'], { stdio: 'inherit', env });
}
