import type Database from 'better-sqlite3';
import { statementCache } from '../sqlite.ts';

/** The columns an update may set: every one but the id. */
export type Patch<T> = Partial<Omit<T, 'id'>>;

/**
 * What a table module contributes to the schema (sandbox/store/schema.ts puts them together, in the
 * order of its TABLES).
 */
export interface TableSchema {
  name: string;
  /** The table and its indexes, `IF NOT EXISTS` throughout: run on every open. */
  ddl: string;
  /** Columns added after the table's first shape (an older file gets them in place), oldest first. */
  addedColumns?: ReadonlyArray<readonly [column: string, definition: string]>;
  /** An AUTOINCREMENT table's first id less one (its `sqlite_sequence` row, seeded once). */
  idSeed?: number;
  /**
   * The table's columns, for a file whose table still has an older shape (recognised by `old` in
   * its stored SQL): it is rebuilt with these (see schema.ts, rebuildOlderTables).
   */
  rebuild?: { columns: string; old: RegExp };
}

/**
 * One connection's statements, shared by the table modules: prepared once per SQL text (through
 * `statementCache`, sandbox/sqlite.ts), and the inserts and updates whose SQL depends on the
 * columns given, built once per table and column list.
 */
export class Statements {
  /** Prepared once per SQL text: preparing is the costliest step of a small query. */
  readonly stmt: (sql: string) => Database.Statement;
  /** Inserts and updates by table and column list, so their SQL text is not rebuilt per call. */
  private readonly built = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {
    this.stmt = statementCache(db);
  }

  /** An INSERT of every key of `row` (the SQL made once per table and set of columns). */
  insertRow(table: 'requests' | 'card_refs', row: object): Database.RunResult {
    const keys = Object.keys(row);
    const values = Object.values(row);
    return this.sqlFor(`${table} ${keys.join(',')}`, () => {
      checkColumns(keys);
      return `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`;
    }).run(values);
  }

  /** An UPDATE of the columns of `patch` that are not undefined (none: nothing is run). */
  update(table: 'orders' | 'requests' | 'callbacks', id: number, patch: Record<string, unknown>): void {
    const keys: string[] = [];
    const values: unknown[] = [];
    for (const k in patch) {
      if (patch[k] === undefined) continue;
      keys.push(k);
      values.push(patch[k]);
    }
    if (keys.length === 0) return;
    values.push(id);
    this.sqlFor(`${table} ${keys.join(',')} =`, () => {
      checkColumns(keys);
      return `UPDATE ${table} SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`;
    }).run(values);
  }

  /** The statement a key names, its SQL built (and its column names checked) the first time only. */
  sqlFor(key: string, build: () => string): Database.Statement {
    let s = this.built.get(key);
    if (!s) {
      s = this.stmt(build());
      this.built.set(key, s);
    }
    return s;
  }
}

/** Column names go into SQL text: only lower-case words pass. */
export function checkColumns(keys: readonly string[]): void {
  for (const k of keys) if (!/^[a-z_0-9]+$/.test(k)) throw new Error(`bad column ${k}`);
}
