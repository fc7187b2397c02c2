import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/connect.ts';

/**
 * A fresh SQLite database in a temporary folder for each test that asks (the server's own
 * connection set-up), closed and removed after the test.
 */
export function tempSqlite(prefix: string): () => Database {
  const opened: { database: Database; dir: string }[] = [];
  afterEach(async () => {
    for (const { database, dir } of opened.splice(0)) {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const database = openDatabase({ dataDir: dir });
    opened.push({ database, dir });
    return database;
  };
}
