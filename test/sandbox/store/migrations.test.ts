import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DeliveryLog } from '../../../sandbox/relay/delivery-log.ts';
import { ScenarioStore } from '../../../sandbox/scenarios/scenario-store.ts';
import { MIGRATIONS } from '../../../sandbox/store/schema.ts';
import { SandboxStore } from '../../../sandbox/store.ts';
import { tempDir, toVersion2Layout } from './fixtures.ts';

const tablesOf = (db: BetterSqlite3.Database) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
const versionOf = (store: SandboxStore) =>
  store.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();

describe('the sandbox file: one schema, one migration list', () => {
  it('a file of the version-2 layout opens, migrates, and keeps what an older sandbox wrote', () => {
    const file = join(tempDir('store-migrations-'), 'sandbox.sqlite');
    toVersion2Layout(file, (db) => {
      expect(tablesOf(db)).not.toContain('scenario_chargebacks');
      db.prepare(
        `INSERT INTO relay_deliveries (callback_id, order_id, merchant, kind, url, at, http_status, result)
         VALUES (7, 1, 'acme', 'delivery', 'http://127.0.0.1:9/cb?type=sale', 5, 200, 'HTTP 200')`,
      ).run();
      db.prepare(
        'INSERT INTO scenario_merchants (merchant, choice_json, updated_at) VALUES (\'acme\', \'[{"name":"latency"}]\', 1)',
      ).run();
    });
    const store = new SandboxStore(file);
    try {
      expect(versionOf(store)).toBe(String(2 + MIGRATIONS.length));
      expect(tablesOf(store.db)).toEqual(
        expect.arrayContaining([
          'hosted_fields_tickets',
          'hosted_fields_tokens',
          'recurring_charges',
          'relay_deliveries',
          'scenario_chargebacks',
          'scenario_merchants',
          'scenario_orders',
          'test_clocks',
        ]),
      );
      const log = new DeliveryLog(store.db);
      expect(log.list({ merchant: 'acme' }, 10)).toEqual([
        expect.objectContaining({ callbackId: 7, kind: 'delivery', urlField: null }),
      ]);
      expect(new ScenarioStore(store.db).merchantChoice('acme')).toEqual([{ name: 'latency' }]);
    } finally {
      store.close();
    }
    // Opened again (a restart, a second process): nothing runs twice.
    const again = new SandboxStore(file);
    expect(versionOf(again)).toBe(String(2 + MIGRATIONS.length));
    again.close();
  });

  it('a new file gets every table at the latest version; a newer file is refused', () => {
    const file = join(tempDir('store-migrations-'), 'sandbox.sqlite');
    const store = new SandboxStore(file);
    expect(versionOf(store)).toBe(String(2 + MIGRATIONS.length));
    expect(tablesOf(store.db)).toEqual(expect.arrayContaining(['relay_deliveries', 'test_clocks']));
    store.db
      .prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'")
      .run(String(3 + MIGRATIONS.length));
    store.close();
    expect(() => new SandboxStore(file)).toThrow(/newer than this sandbox/);
  });
});
