import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '../src/server/openapi';

// `npm run lint:openapi` (part of `npm run lint`): Redocly's `recommended` rules (redocly.yaml) over the document
// the server generates, written to a temporary file for the linter: no copy of it is kept in the repository.
// Any error fails; warnings are printed.

const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'rpl-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  const result = spawnSync(process.execPath, [cli, 'lint', file, '--config', 'redocly.yaml'], {
    stdio: 'inherit',
    // Bounded: the lint takes seconds.
    timeout: 120_000,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) console.error(`redocly lint: ${result.error.message}`);
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
