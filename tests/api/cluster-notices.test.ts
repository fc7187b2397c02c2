/**
 * The cluster's notices (src/server/db/cluster.ts): a write naming more tables than one NOTIFY
 * payload holds goes out in several notices, one query at a time on the node's one connection
 * (pg queues overlapping queries with a deprecation warning today and refuses them from pg@9),
 * and the other node receives every table. PostgreSQL only.
 */
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { joinCluster } from '../../src/server/db/cluster.ts';

describe.skipIf(!process.env.DATABASE_URL)('cluster notices', () => {
  test('a long list of changed tables reaches the other node whole, one notice at a time', async () => {
    const url = process.env.DATABASE_URL!;
    const received: string[] = [];
    const sender = await joinCluster(url, () => undefined, (msg) => received.push(`warning: ${msg}`));
    const listener = await joinCluster(url, (tables) => received.push(...tables), (msg) => received.push(`warning: ${msg}`));
    // Count the queries each client has in flight while the notices go out.
    const original = pg.Client.prototype.query;
    const inFlight = new Map<unknown, number>();
    let most = 0;
    pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      const now = (inFlight.get(this) ?? 0) + 1;
      inFlight.set(this, now);
      most = Math.max(most, now);
      const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) void result.then(done, done);
      else done();
      return result;
    } as typeof original;
    try {
      const tables = Array.from({ length: 600 }, (_, i) => `erp_a_rather_long_table_name_${i}`);
      sender.publish(tables);
      await new Promise((resolve) => setTimeout(resolve, 20));
      sender.publish(tables.map((table) => `${table}_again`));
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1200);
      expect(received.filter((entry) => entry.startsWith('warning'))).toEqual([]);
      expect(new Set(received).size).toBe(1200);
      expect(most).toBe(1);
    } finally {
      pg.Client.prototype.query = original;
      await sender.close();
      await listener.close();
    }
  });
});
