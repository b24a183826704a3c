import { mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME, openStore } from '../open-store';

// The start's integrity check (open-store.ts): a SQLite file whose header is sound but whose pages are damaged is
// refused at start with a clear message; a serving thread, opening the file its main thread has just checked,
// leaves the check out (checkIntegrity: false).

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A database of a few hundred pages, then garbage written over pages in its middle (its header intact). */
function damagedDatabase(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-damaged-'));
  dirs.push(dir);
  const file = join(dir, SQLITE_FILE_NAME);
  const db = new Database(file);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT); CREATE INDEX t_text ON t (text)');
  const insert = db.prepare('INSERT INTO t (text) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 20_000; i++) insert.run(`row ${i} ${'x'.repeat(i % 50)}`);
  })();
  db.close();
  const size = statSync(file).size;
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(3 * 4096, 0xa5), 0, 3 * 4096, Math.floor(size / 2 / 4096) * 4096);
  } finally {
    closeSync(fd);
  }
  return dir;
}

describe('openStore on a SQLite file with damaged pages', () => {
  it('refuses it by default, naming the file and the integrity check', async () => {
    const dir = damagedDatabase();
    await expect(openStore({ dataDir: dir, seedWhenEmpty: false })).rejects.toThrow(
      new RegExp(`The database file .*${SQLITE_FILE_NAME} is not a usable SQLite database \\(integrity check: `),
    );
  });

  it('opens it without the check (a serving thread, after its main thread checked the file)', async () => {
    const dir = damagedDatabase();
    const store = await openStore({ dataDir: dir, seedWhenEmpty: false, checkIntegrity: false });
    await store.close();
  });
});
