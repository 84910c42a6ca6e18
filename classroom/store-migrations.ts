import type Database from 'better-sqlite3';

/*
 * Schema changes after the first release of classroom.sqlite, applied in order on open: each adds
 * (columns, tables), none rewrites, so a classroom's data folder from an older version opens as is.
 */

interface Migration {
  /** Already applied when this holds (checked on every open: no version counter to keep in step). */
  applied(db: Database.Database): boolean;
  sql: string;
}

const hasColumn = (db: Database.Database, table: string, column: string) =>
  (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).some((c) => c.name === column);

const MIGRATIONS: readonly Migration[] = [
  {
    // The 3-D Secure version a request asked for: only requests that fit an exercise count for it.
    applied: (db) => hasColumn(db, 'attempts', 'tds'),
    sql: 'ALTER TABLE attempts ADD COLUMN tds TEXT',
  },
  {
    // Why a refusal is not the trainee's mistake (the trainer restored their key under them).
    applied: (db) => hasColumn(db, 'attempts', 'cause'),
    sql: 'ALTER TABLE attempts ADD COLUMN cause TEXT',
  },
  {
    // The keys a trainer's restore replaced: a refused request signed with one is the restore's doing.
    applied: () => false,
    sql: `CREATE TABLE IF NOT EXISTS key_restores (
  id INTEGER PRIMARY KEY AUTOINCREMENT, trainee_id TEXT NOT NULL, at INTEGER NOT NULL,
  replaced_pem TEXT NOT NULL, replaced_fingerprint TEXT NOT NULL
)`,
  },
  {
    // Hints that pick themselves: per exercise, after how many refusals and at what cost (points).
    applied: () => false,
    sql: `CREATE TABLE IF NOT EXISTS auto_hints (
  exercise_id TEXT PRIMARY KEY, after INTEGER NOT NULL, cost INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS hints_unlocked (
  trainee_id TEXT NOT NULL, exercise_id TEXT NOT NULL, mistake_id TEXT NOT NULL, at INTEGER NOT NULL, cost INTEGER NOT NULL,
  PRIMARY KEY (trainee_id, exercise_id, mistake_id)
);
CREATE TABLE IF NOT EXISTS assisted (
  trainee_id TEXT NOT NULL, exercise_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (trainee_id, exercise_id)
)`,
  },
];

export function migrate(db: Database.Database): void {
  for (const m of MIGRATIONS) if (!m.applied(db)) db.exec(m.sql);
}
