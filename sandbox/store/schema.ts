import type Database from 'better-sqlite3';
import { ADDED_MERCHANTS_TABLE } from './added-merchants.ts';
import { CALLBACKS_TABLE } from './callbacks.ts';
import { CARD_REFS_TABLE } from './card-refs.ts';
import { MERCHANT_KEYS_TABLE } from './merchant-keys.ts';
import { META_TABLE, type Meta } from './meta.ts';
import { NONCES_TABLE } from './nonces.ts';
import { DROPPED_ORDER_INDEXES, ORDER_ID_FLOOR, ORDERS_TABLE } from './orders.ts';
import { RECURRING_TABLE } from './recurring.ts';
import { REQUESTS_TABLE } from './requests.ts';
import type { TableSchema } from './statements.ts';

/**
 * The schema's changes after version 2, in order: append only (never edit or reorder one that has
 * shipped; a file records how many it has had). Version 2 + n is the file after the first n. Each
 * runs once per file, in the opening transaction; each is written to also pass over a file that
 * already has what it adds, because before version 3 these tables made themselves when their owner
 * opened the file. The only place, with the table modules beside it, where the sandbox's file gets a
 * table or a column (test/lint/sandbox-schema.test.ts).
 */
export const MIGRATIONS: ReadonlyArray<{ why: string; up: (db: Database.Database) => void }> = [
  {
    why: "the tables that made themselves outside the version: the recurring schedules' columns and charges, the hosted fields' tickets and tokens, the scenario lab's choices, clocks and chargebacks, the relay's record",
    up: (db) => {
      const added = addColumns(db, 'recurring_payments', [
        ['status', "TEXT NOT NULL DEFAULT 'active'"],
        ['next_charge_at', 'INTEGER'],
        ['next_charge_no', 'INTEGER NOT NULL DEFAULT 1'],
        ['charges_made', 'INTEGER NOT NULL DEFAULT 0'],
      ]);
      // Subscriptions stored before the schedules: RecurringStore dates them with the sandbox's clock.
      if (added.includes('next_charge_at'))
        db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('recurring_unscheduled', '1')").run();
      db.exec(`
CREATE INDEX IF NOT EXISTS recurring_due ON recurring_payments (next_charge_at) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS recurring_merchant_due ON recurring_payments (merchant, next_charge_at) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS recurring_merchant ON recurring_payments (merchant, id);
CREATE TABLE IF NOT EXISTS recurring_charges (
  order_id INTEGER PRIMARY KEY, recurring_id INTEGER NOT NULL, charge_no INTEGER NOT NULL, due_at INTEGER NOT NULL,
  UNIQUE (recurring_id, charge_no));
CREATE TABLE IF NOT EXISTS hosted_fields_tickets (
  ticket TEXT PRIMARY KEY, merchant TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS hosted_fields_tokens (
  token TEXT PRIMARY KEY, merchant TEXT NOT NULL, card_json TEXT NOT NULL, outcome_json TEXT NOT NULL,
  expires_at INTEGER NOT NULL, used_at INTEGER);
CREATE TABLE IF NOT EXISTS scenario_merchants (
  merchant TEXT PRIMARY KEY, choice_json TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS scenario_orders (
  order_id INTEGER PRIMARY KEY, choice_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS test_clocks (
  merchant TEXT PRIMARY KEY, advanced_ms INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS scenario_chargebacks (
  order_id INTEGER PRIMARY KEY, merchant TEXT NOT NULL, due_at INTEGER, made_request_id INTEGER);
CREATE INDEX IF NOT EXISTS scenario_chargebacks_due ON scenario_chargebacks (due_at) WHERE due_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS relay_deliveries (
  id INTEGER PRIMARY KEY, callback_id INTEGER, order_id INTEGER NOT NULL, merchant TEXT NOT NULL,
  kind TEXT NOT NULL, mutation TEXT, url TEXT NOT NULL, at INTEGER NOT NULL,
  http_status INTEGER, result TEXT NOT NULL, duration_ms INTEGER, body_excerpt TEXT);
CREATE INDEX IF NOT EXISTS relay_deliveries_order ON relay_deliveries (order_id, id);
CREATE INDEX IF NOT EXISTS relay_deliveries_merchant ON relay_deliveries (merchant, id);
CREATE INDEX IF NOT EXISTS relay_deliveries_callback ON relay_deliveries (callback_id, kind) WHERE callback_id IS NOT NULL;
`);
      // Added by issue 28 (which URL field a delivery went to); the relay made the column itself before.
      addColumns(db, 'relay_deliveries', [['url_field', 'TEXT']]);
    },
  },
];

/** Version 2 is the base below; each migration adds one. */
const SCHEMA_VERSION = 2 + MIGRATIONS.length;

/** Adds the columns a table lacks; returns those it added. */
function addColumns(
  db: Database.Database,
  table: string,
  list: ReadonlyArray<readonly [column: string, definition: string]>,
): string[] {
  const have = new Set(
    (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name),
  );
  const added: string[] = [];
  for (const [column, definition] of list) {
    if (have.has(column)) continue;
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    added.push(column);
  }
  return added;
}

/** How long a statement waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Every table, in the order they are created (a table before those that refer to it). */
const TABLES: readonly TableSchema[] = [
  META_TABLE,
  ORDERS_TABLE,
  REQUESTS_TABLE,
  CARD_REFS_TABLE,
  RECURRING_TABLE,
  NONCES_TABLE,
  CALLBACKS_TABLE,
  MERCHANT_KEYS_TABLE,
  ADDED_MERCHANTS_TABLE,
];

const SCHEMA = TABLES.map((t) => t.ddl).join('\n');

/** Indexes of earlier versions, dropped when a file is opened. */
const DROPPED_INDEXES = DROPPED_ORDER_INDEXES;

/**
 * Tables an older file has in an older shape, rebuilt when it is opened (SQLite cannot drop a
 * column constraint's index or AUTOINCREMENT in place): copied row for row, ids included, into the
 * new shape. `old` recognises the older shape from the table's stored SQL.
 */
const REBUILT_TABLES = TABLES.flatMap((t) => (t.rebuild ? [{ table: t.name, ...t.rebuild }] : []));

/** Columns added after schema version 1 (a v1 file is upgraded in place), table by table. */
const ADDED_COLUMNS = TABLES.flatMap((t) =>
  (t.addedColumns ?? []).map(([column, definition]) => [t.name, column, definition] as const),
);

/** AUTOINCREMENT tables' first ids: readable, gateway-like ids (see each table's module). */
const ID_SEEDS = TABLES.flatMap((t) => (t.idSeed === undefined ? [] : [[t.name, t.idSeed] as const]));

/**
 * Brings a file's schema up to date (creates it, rebuilds older tables, adds columns, drops old
 * indexes, records the version) and seeds the AUTOINCREMENT tables' first ids (the card hash's
 * key lives in the key file: store/secrets-at-rest.ts). Throws, leaving the file as it was, when the file is of a newer sandbox.
 */
export function migrate(db: Database.Database, tx: <T>(fn: () => T) => T, meta: Meta, dbPath: string): void {
  // Off while the schema is brought up to date: a rebuilt table is dropped while others refer to it.
  db.pragma('foreign_keys = OFF');
  // Another process (npm start beside npm run sandbox) may hold the write lock for a moment.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  tx(() => {
    db.exec(SCHEMA);
    if (rebuildOlderTables(db, meta)) db.exec(SCHEMA); // the rebuilt tables' indexes
    const version = meta.get('schema_version');
    if (version !== undefined && Number(version) > SCHEMA_VERSION) {
      throw new Error(
        `The sandbox database ${dbPath} has schema version ${version}, newer than this sandbox (${SCHEMA_VERSION}): update the project or point SANDBOX_DB at another file.`,
      );
    }
    for (const [table, column, definition] of ADDED_COLUMNS) addColumns(db, table, [[column, definition]]);
    for (const index of DROPPED_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index}`);
    const had = version === undefined ? 2 : Math.max(2, Number(version));
    for (const m of MIGRATIONS.slice(had - 2)) m.up(db);
    if (version === undefined || Number(version) < SCHEMA_VERSION)
      meta.set('schema_version', String(SCHEMA_VERSION));
  });
  db.pragma('foreign_keys = ON');
  const seed = db.prepare(
    `INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)`,
  );
  tx(() => {
    for (const [table, start] of ID_SEEDS) seed.run(table, start, table);
  });
}

/**
 * Rebuilds the tables of {@link REBUILT_TABLES} that have their older shape (SQLite's own
 * procedure: a new table, the rows copied, the old one dropped, the new one renamed); returns
 * whether any was. What AUTOINCREMENT had handed out in orders becomes their id floor, so no id is
 * handed out twice. Runs in the opening transaction, with foreign keys off.
 */
function rebuildOlderTables(db: Database.Database, meta: Meta): boolean {
  let rebuilt = false;
  for (const { table, columns, old } of REBUILT_TABLES) {
    const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
      { sql: string } | undefined;
    if (!row || !old.test(row.sql)) continue;
    const seq = db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as
      { seq: number } | undefined;
    const names = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>)
      .map((c) => c.name)
      .join(', ');
    db.exec(`CREATE TABLE ${table}_rebuilt ${columns};
        INSERT INTO ${table}_rebuilt (${names}) SELECT ${names} FROM ${table};
        DROP TABLE ${table};
        ALTER TABLE ${table}_rebuilt RENAME TO ${table};`);
    if (table === 'orders' && seq && seq.seq > ORDER_ID_FLOOR) meta.set('orders_id_floor', String(seq.seq));
    rebuilt = true;
  }
  return rebuilt;
}

/** The id floor of orders: ORDER_ID_FLOOR, or what a rebuilt file's AUTOINCREMENT had handed out. */
export function orderIdFloor(meta: Meta): number {
  return Number(meta.get('orders_id_floor') ?? ORDER_ID_FLOOR);
}
