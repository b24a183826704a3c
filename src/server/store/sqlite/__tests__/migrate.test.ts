import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../paths';
import { migrate } from '../migrate';

const DIR = join(REPO_ROOT, 'src', 'server', 'store', 'sqlite');

/** A database as a release with the migrations up to `last` left it. */
function databaseAt(last: number) {
  const db = new Database(':memory:');
  for (const file of readdirSync(DIR)
    .filter((f) => /^\d{3}-.+\.sql$/.test(f))
    .sort()) {
    if (Number(file.slice(0, 3)) > last) break;
    db.exec(readFileSync(join(DIR, file), 'utf8'));
  }
  db.pragma(`user_version = ${last}`);
  return db;
}

describe('the SQLite migrations', () => {
  it('010 moves the versions’ snapshots into desk_snapshots, each version pointing at its own', () => {
    const db = databaseAt(9);
    const insert = db.prepare(
      `INSERT INTO desk_versions (kind, published_at, file_name, sha256, rows, data_version, snapshot_gz)
       VALUES ('branches', '2026-11-01T00:00:00Z', ?, 'x', 1, 'v', ?)`,
    );
    insert.run('a.csv', Buffer.from('snapshot a'));
    insert.run('b.csv', null);
    insert.run('c.csv', Buffer.from('snapshot c'));
    expect(migrate(db)).toBeGreaterThanOrEqual(1);
    const rows = db
      .prepare(
        `SELECT v.file_name, s.snapshot_gz FROM desk_versions v LEFT JOIN desk_snapshots s ON s.id = v.snapshot_id
         ORDER BY v.id`,
      )
      .all() as { file_name: string; snapshot_gz: Buffer | null }[];
    expect(rows.map((r) => [r.file_name, r.snapshot_gz?.toString() ?? null])).toEqual([
      ['a.csv', 'snapshot a'],
      ['b.csv', null],
      ['c.csv', 'snapshot c'],
    ]);
    const columns = (db.prepare('PRAGMA table_info(desk_versions)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('snapshot_gz');
    // A new snapshot gets an id past the moved ones.
    const next = db.prepare('INSERT INTO desk_snapshots (snapshot_gz) VALUES (?) RETURNING id').get(Buffer.from('n'));
    expect((next as { id: number }).id).toBe(4);
    db.close();
  });
});
