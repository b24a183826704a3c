import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile } from '../server/desk/shell-import';
import type { ImportKind } from '../server/importer/kinds';
import { createTestApp, openTestStore, type TestApp, type TestEngine } from './test-app';

/**
 * The real app on a private copy of the seeded store of the engine into which the files are imported, in order,
 * through the importer as `npm run import` does. An import replaces what it covers (agents: all of them;
 * branches: those of the file's countries), so what the app then answers of that kind comes from the files
 * alone: the exports' round trip. (A store with no seed at all has no delivery-mode catalog nor the banks a
 * `*` head office pays into, so the reference data stays.) Every import must apply, or this throws.
 */
export async function appFromImports(
  engine: TestEngine,
  files: { kind: ImportKind; name: string; text: string }[],
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-imports-'));
  const store = await openTestStore(engine, dir);
  for (const file of files) {
    const path = join(dir, file.name);
    writeFileSync(path, file.text);
    const report = await importFile(store, file.kind, path, { allowRemovals: true });
    if (!report.applied)
      throw new Error(
        `${file.name} was not applied: ${report.notApplied}; ${JSON.stringify(report.problems.slice(0, 5))}`,
      );
  }
  const app = await createTestApp({ store });
  return {
    ...app,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
