/**
 * Snowflake-style ids (time, node, sequence), written as strings as the contract requires.
 * Monotonic within a process; nodes on one PostgreSQL database each hold their own node number
 * (db/cluster.ts), or ERP_NODE_ID names it.
 */
const EPOCH = 1_700_000_000_000n;
let nodeId = BigInt(Number(process.env.ERP_NODE_ID ?? 1) & 0x3ff);
let lastMillis = 0n;
let sequence = 0n;

export function nextId(): string {
  let now = BigInt(Date.now());
  if (now < lastMillis) now = lastMillis; // clock went back: keep ids increasing
  if (now === lastMillis) {
    sequence = (sequence + 1n) & 0xfffn;
    if (sequence === 0n) now = lastMillis + 1n; // 4096 ids in one millisecond: borrow the next one
  } else {
    sequence = 0n;
  }
  lastMillis = now;
  return (((now - EPOCH) << 22n) | (nodeId << 12n) | sequence).toString();
}

/** The node number of this process's ids (1–1023), as the cluster gave it. */
export function setNodeId(n: number): void {
  nodeId = BigInt(n & 0x3ff);
}
