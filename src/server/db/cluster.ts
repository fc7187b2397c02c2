/**
 * Several API nodes on one PostgreSQL database behave as one server (issue 16 §3):
 *  - each node holds a node number (1–1023) for its ids as a session advisory lock, so two live
 *    nodes never share one (a node that dies releases it with its connection); ERP_NODE_ID, when
 *    set, is taken as it is;
 *  - start-up (tables, views, seed) runs under one advisory lock, so nodes started together do not
 *    race to create the same tables;
 *  - every committed write names its tables on the channel erp_invalidate (NOTIFY); the other
 *    nodes drop what they cached from those tables (lookups, sessions and the users' current
 *    rights, search matches) and their permission caches, at once instead of when the caches
 *    expire. A node does not act on its own notices.
 * SQLite is one process: none of this applies there.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { setNodeId } from './ids.ts';

const LOCK_SPACE = 7311;
const STARTUP_LOCK = 0;
const MAX_NODE = 1023;
const CHANNEL = 'erp_invalidate';
/** NOTIFY payloads are limited to 8000 bytes: long lists go in several notices. */
const MAX_PAYLOAD = 7000;

export interface Cluster {
  nodeId: number;
  /** Tells the other nodes these tables changed (after the write committed). */
  publish(tables: Iterable<string>): void;
  close(): Promise<void>;
}

/** Runs `fn` while holding the cluster's start-up lock (waits for a node starting meanwhile). */
export async function underStartupLock<T>(databaseUrl: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1, $2)', [LOCK_SPACE, STARTUP_LOCK]);
    return await fn();
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function joinCluster(databaseUrl: string, onInvalidate: (tables: string[]) => void, warn: (msg: string) => void): Promise<Cluster> {
  const me = crypto.randomUUID().replace(/-/g, '').slice(0, 12);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  client.on('error', (error) => warn(`cluster connection lost: ${error.message}`));
  let nodeId = Number(process.env.ERP_NODE_ID ?? 0);
  if (!nodeId) {
    for (let n = 1; n <= MAX_NODE && !nodeId; n++) {
      const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock($1, $2) as got', [LOCK_SPACE, n]);
      if (rows[0]?.got) nodeId = n;
    }
    if (!nodeId) throw new Error(`more than ${MAX_NODE} API nodes on one database`);
  }
  setNodeId(nodeId);
  await client.query(`listen ${CHANNEL}`);
  client.on('notification', (message) => {
    const [from, list] = String(message.payload ?? '').split(':');
    if (from === me || !list) return;
    onInvalidate(list.split(',').filter(Boolean));
  });

  let pending = new Set<string>();
  let scheduled = false;
  let closed = false;
  let sending: Promise<unknown> = Promise.resolve();
  const flush = () => {
    scheduled = false;
    const tables = [...pending];
    pending = new Set();
    let batch: string[] = [];
    const send = () => {
      if (!batch.length) return;
      const payload = `${me}:${batch.join(',')}`;
      batch = [];
      // One query at a time on this connection (pg queues overlapping ones but will refuse them
      // from pg@9): a long list's notices, and a flush while the last one is still on its way.
      sending = sending
        .then(() => client.query('select pg_notify($1, $2)', [CHANNEL, payload]))
        .catch((error: unknown) => warn(`cluster notify failed: ${String(error)}`));
    };
    for (const table of tables) {
      if ((batch.join(',').length + table.length + 20) > MAX_PAYLOAD) send();
      batch.push(table);
    }
    send();
  };

  return {
    nodeId,
    publish(tables) {
      // Writes after close (a last log line) have nobody left to tell.
      if (closed) return;
      for (const table of tables) pending.add(table);
      // The tables of one request's writes travel in one notice.
      if (!scheduled && pending.size) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    async close() {
      if (scheduled) flush();
      closed = true;
      await sending;
      await client.end().catch(() => undefined);
    },
  };
}
