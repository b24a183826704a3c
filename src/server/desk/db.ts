import type Database from 'better-sqlite3';
import type pg from 'pg';
import { numberedParameters, StoreUnavailableError, type LookupStore } from '../store/store';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { isUnavailable, PgStore } from '../store/postgres/pg-store';

// The desk's tables are plain SQL both engines read alike (each engine's migrations/001-schema.sql and
// the same): the desk writes its statements once with `?` placeholders and this
// small driver runs them on the store's own connection (SQLite) or pool (PostgreSQL).

export type Row = Record<string, unknown>;

export interface DeskDb {
  readonly engine: 'sqlite' | 'postgres';
  all(sql: string, params?: unknown[]): Promise<Row[]>;
  run(sql: string, params?: unknown[]): Promise<number>;
  /**
   * Inserts many rows, in chunks, each chunk its own transaction; yields to the event loop between chunks.
   * Columns are named `name` (text) or `name:int`.
   */
  insertMany(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  /** Like run, but answers null at once where SQLite's write lock is held by another connection (no wait). */
  runNoWait(sql: string, params?: unknown[]): Promise<number | null>;
  /**
   * Runs `work` in one transaction on `tx` (committed when it resolves, rolled back when it throws). `work` must
   * await nothing but tx's statements: on SQLite those answer synchronously, so no other task of the event loop
   * writes on the connection meanwhile.
   */
  transaction<T>(work: (tx: DeskDb) => Promise<T>): Promise<T>;
}

const CHUNK = 5000;
const nameOf = (column: string) => column.replace(/:int$/, '');

class SqliteDeskDb implements DeskDb {
  readonly engine = 'sqlite' as const;
  constructor(private readonly db: Database.Database) {}
  async all(sql: string, params: unknown[] = []) {
    return this.db.prepare(sql).all(...params) as Row[];
  }
  async run(sql: string, params: unknown[] = []) {
    return this.db.prepare(sql).run(...params).changes;
  }
  async insertMany(table: string, columns: string[], rows: unknown[][]) {
    const insert = this.db.prepare(
      `INSERT INTO ${table} (${columns.map(nameOf).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    const chunk = this.db.transaction((part: unknown[][]) => {
      for (const row of part) insert.run(...row);
    });
    for (let start = 0; start < rows.length; start += CHUNK) {
      chunk(rows.slice(start, start + CHUNK));
      // Lookups keep being answered while a million diff entries are written.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  async runNoWait(sql: string, params: unknown[] = []) {
    // A heartbeat or a recovery's claim never stalls the event loop behind a worker's long write.
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      return this.db.prepare(sql).run(...params).changes;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
  }
  async transaction<T>(work: (tx: DeskDb) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(this);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

class PgDeskDb implements DeskDb {
  readonly engine = 'postgres' as const;
  constructor(
    private readonly pool: pg.Pool,
    /** Inside a transaction: its client, which every statement goes through. */
    private readonly client?: pg.PoolClient,
  ) {}
  private get connection() {
    return this.client ?? this.pool;
  }
  /** A statement on the pool (its statement timeout bounds it); a database that cannot answer is a 503. */
  private async query(sql: string, params: unknown[]) {
    try {
      return await this.connection.query(numberedParameters(sql), params);
    } catch (error) {
      if (isUnavailable(error))
        throw new StoreUnavailableError(`PostgreSQL unavailable: ${(error as Error).message}`, 5, { cause: error });
      throw error;
    }
  }
  async all(sql: string, params: unknown[] = []) {
    return (await this.query(sql, params)).rows as Row[];
  }
  async run(sql: string, params: unknown[] = []) {
    return (await this.query(sql, params)).rowCount ?? 0;
  }
  async insertMany(table: string, columns: string[], rows: unknown[][]) {
    for (let start = 0; start < rows.length; start += CHUNK) {
      const part = rows.slice(start, start + CHUNK);
      // One statement per chunk: each column as one array parameter, unnested into rows.
      const arrays = columns.map((_, c) => part.map((row) => row[c]));
      const types = columns.map((column) => (column.endsWith(':int') ? 'integer[]' : 'text[]'));
      await this.connection.query(
        `INSERT INTO ${table} (${columns.map(nameOf).join(', ')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}`).join(', ')})`,
        arrays,
      );
    }
  }
  async runNoWait(sql: string, params: unknown[] = []) {
    return this.run(sql, params);
  }
  async transaction<T>(work: (tx: DeskDb) => Promise<T>): Promise<T> {
    if (this.client) throw new Error('a desk transaction cannot be nested');
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(new PgDeskDb(this.pool, client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}

/** The desk's database: the store's own (SQLite connection, or PostgreSQL pool). */
export function deskDbOf(store: LookupStore): DeskDb {
  if (store instanceof SqliteStore) return new SqliteDeskDb(store.db);
  if (store instanceof PgStore) return new PgDeskDb(store.pool);
  throw new Error(`the operations desk needs a SQLite or PostgreSQL store (got ${store.engine})`);
}
