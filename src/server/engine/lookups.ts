import type { Services } from '../services.ts';
import type { Model } from './model.ts';
import type { Row } from './store.ts';

/** Fills display fields (deptName beside deptId…) with one query per lookup, on either database. */
export async function fillLookups(services: Services, model: Model, tenantId: string, rows: Row[]): Promise<Row[]> {
  const lookups = model.resource?.lookups ?? [];
  if (!rows.length || !lookups.length) return rows;
  // Several display fields from one table and key (goods code, name, spec) share one read.
  const reads = new Map<string, Promise<Row[]>>();
  for (const lookup of lookups) {
    const target = services.registry.models.get(lookup.resource);
    if (!target) continue;
    const match = lookup.match ?? 'id';
    const keys = new Set<string>();
    for (const row of rows) {
      const raw = row[lookup.from];
      if (raw === null || raw === undefined || raw === '') continue;
      const parts = lookup.multi ? String(raw).split(',') : [String(raw)];
      for (const part of parts) if (part.trim()) keys.add(part.trim());
    }
    if (!keys.size) {
      for (const row of rows) row[lookup.field] = '';
      continue;
    }
    // Display names of small reference rows: a two-second cache (cleared by any write here).
    const sorted = [...keys].sort();
    const key = `${tenantId}|${match}|${sorted.join(',')}`;
    let read = reads.get(`${target.table}|${key}`);
    if (!read) {
      read = services.store.cached(target.table, key, 2000, () => services.store.find(target, tenantId, { where: { [match]: sorted } }));
      reads.set(`${target.table}|${key}`, read);
    }
    const found = await read;
    const byKey = new Map(found.map((r) => [String(r[match]), r[lookup.take]]));
    for (const row of rows) {
      const raw = row[lookup.from];
      if (raw === null || raw === undefined || raw === '') {
        row[lookup.field] = '';
        continue;
      }
      const parts = lookup.multi ? String(raw).split(',') : [String(raw)];
      row[lookup.field] = parts
        .map((p) => byKey.get(p.trim()))
        .filter((v) => v !== undefined && v !== null)
        .join(',');
    }
  }
  return rows;
}
