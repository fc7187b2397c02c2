/**
 * Acceptance 8: kill -9 during a burst of writes loses no acknowledged row (SQLite WAL). The real
 * server runs as a child process exactly as `npm start` runs it; it is killed with SIGKILL while
 * writes are in flight and restarted on the same data directory.
 *
 * SQLite only: with PostgreSQL the database is a separate server and survives the API process, so
 * killing the API process says nothing about our storage; the embedded WAL file is what is at stake.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { databases } from '../support/server.ts';
import { expectOk, signedIn } from '../support/client.ts';
import { spawnServer, type ChildServer } from '../support/process.ts';

const KILL_AFTER = 150;
const WORKERS = 12;

describe.each(databases().filter((d) => d.name === 'sqlite'))('durability after kill -9 ($name)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-durable-'));
  const running: ChildServer[] = [];

  afterAll(async () => {
    for (const s of running) await s.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('every acknowledged param/submit survives a SIGKILL mid-burst and a restart', async () => {
    const first = await spawnServer({ ERP_DATA_DIR: dataDir });
    running.push(first);
    const api = await signedIn(first.url);

    const acked = new Map<string, string>();
    let attempted = 0;
    let failedInFlight = 0;
    let killed: Promise<void> | undefined;
    // Workers keep writing until the process has exited, not just until the signal is sent: a
    // SIGKILL to the process group can take a moment to land (npx → tsx → node), and writes
    // acknowledged meanwhile must not leave the burst without any write cut off by the kill.
    let dead = false;
    let next = 0;
    const worker = async () => {
      while (!dead) {
        const i = next++;
        const key = `burst.${String(i).padStart(5, '0')}`;
        attempted++;
        try {
          const reply = await api.post('/blade-system/param/submit', { paramName: `突发写入${i}`, paramKey: key, paramValue: `value-${i}` });
          if (reply.status === 200 && reply.body.code === 200) acked.set(key, `value-${i}`);
        } catch {
          failedInFlight++; // the connection died with the process
          return;
        }
        if (acked.size >= KILL_AFTER && !killed) killed = first.kill9().then(() => void (dead = true));
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    await killed;
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(attempted).toBeGreaterThan(acked.size); // some writes were cut off by the kill
    expect(failedInFlight).toBeGreaterThan(0);
    // The WAL holds what the kill left behind.
    expect(fs.existsSync(path.join(dataDir, 'erp.sqlite'))).toBe(true);

    const second = await spawnServer({ ERP_DATA_DIR: dataDir });
    running.push(second);
    const again = await signedIn(second.url);
    const page = expectOk(await again.get('/blade-system/param/list', { paramKey_likeright: 'burst.', size: 2000 }));
    const found = new Map<string, string>(page.records.map((r: { paramKey: string; paramValue: string }) => [r.paramKey, r.paramValue]));
    const lost = [...acked.keys()].filter((key) => found.get(key) !== acked.get(key));
    expect(lost).toEqual([]);
    // Nothing beyond what was attempted, and no duplicates.
    expect(page.total).toBeLessThanOrEqual(attempted);
    expect(page.total).toBe(found.size);
    // The restarted server keeps working on the same file.
    expectOk(await again.post('/blade-system/param/submit', { paramName: '重启后写入', paramKey: 'after.restart', paramValue: '1' }));
    await second.stop();
  });
});
