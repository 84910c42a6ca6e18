import { describe, expect, it } from 'vitest';
import { limitClause, openDatabase, statementCache } from '../../sandbox/sqlite.ts';

describe('limitClause', () => {
  it('writes the limit (and offset) into the SQL text', () => {
    expect(limitClause(200)).toBe('LIMIT 200');
    expect(limitClause(1, 500)).toBe('LIMIT 1 OFFSET 500');
    expect(limitClause(0)).toBe('LIMIT 0');
  });

  it('refuses anything but a whole number, so nothing else reaches the SQL text', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(() => limitClause(bad)).toThrow(RangeError);
      expect(() => limitClause(1, bad)).toThrow(RangeError);
    }
  });

  it('gives one cached statement per value, each answering with its own limit', () => {
    const db = openDatabase(':memory:');
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3), (4)');
      const stmt = statementCache(db);
      const ids = (limit: number, offset?: number) =>
        (
          stmt(`SELECT id FROM t ORDER BY id ${limitClause(limit, offset)}`).all() as Array<{ id: number }>
        ).map((r) => r.id);
      expect(ids(2)).toEqual([1, 2]);
      expect(ids(3)).toEqual([1, 2, 3]);
      expect(ids(1, 2)).toEqual([3]);
      expect(stmt(`SELECT id FROM t ORDER BY id ${limitClause(2)}`)).toBe(
        stmt(`SELECT id FROM t ORDER BY id ${limitClause(2)}`),
      );
    } finally {
      db.close();
    }
  });
});
