import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/store/sqlite-driver.ts';

describe('SQLite driver statement reuse', () => {
  it('gives each use of one SQL text the right rows, an open iteration included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'webdata-sqlite-'));
    const db = openSqlite(join(dir, 'db.sqlite'));
    try {
      db.prepare('CREATE TABLE t (n INTEGER)').run([]);
      const insert = 'INSERT INTO t (n) VALUES (?)';
      for (let n = 1; n <= 5; n++) db.prepare(insert).run([n]);
      const select = 'SELECT n FROM t WHERE n >= ? ORDER BY n';
      expect(db.prepare(select).reader).toBe(true);
      expect(db.prepare(insert).reader).toBe(false);
      const iteration = db.prepare(select).iterate([1]);
      expect(iteration.next().value).toEqual({ n: 1 });
      // The same SQL run to its end in between must not reset the iteration.
      expect(db.prepare(select).all([4])).toEqual([{ n: 4 }, { n: 5 }]);
      expect([...iteration]).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
      // A statement kept prepared sees a schema change made after it.
      db.prepare('ALTER TABLE t ADD COLUMN label TEXT').run([]);
      expect(db.prepare('SELECT * FROM t WHERE n >= ? ORDER BY n').all([5])).toEqual([
        { n: 5, label: null },
      ]);
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
