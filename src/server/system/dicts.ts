import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller } from '../http/context.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { nest } from '../engine/trees.ts';
import { valueParam } from './params.ts';

/** Live, unsealed items of the dictionary whose parent row has this code (CONTRACT §6.1). */
async function items(services: Services, ctx: Ctx, model: Model, code: string): Promise<Row[]> {
  const caller = mustCaller(ctx);
  const parents = await services.store.find(model, caller.tenantId, { where: { code, parentId: '0' } });
  if (!parents.length) return [];
  const rows = await services.store.find(model, caller.tenantId, {
    where: { code },
    orderBy: [{ column: 'sort', dir: 'asc' }, { column: 'id', dir: 'asc' }],
  });
  return rows.filter((r) => String(r.parentId) !== '0' && Number(r.isSealed ?? 0) === 0);
}

export function registerDictHandlers(services: Services) {
  services.register('dict.dictionary', async (ctx, model) => {
    const code = valueParam(ctx, 'code');
    return code ? items(services, ctx, model, code) : [];
  });

  services.register('dict.dictionaryTree', async (ctx, model) => {
    const code = valueParam(ctx, 'code');
    if (!code) return [];
    const list = await items(services, ctx, model, code);
    return nest(list, (r) => String(r.id), (r) => String(r.parentId));
  });

  services.register('dict.dictionaryMap', async (ctx, model) => {
    const codes = (valueParam(ctx, 'code', 'codes') ?? '').split(',').filter(Boolean);
    const out: Record<string, Row[]> = {};
    for (const code of codes) out[code] = await items(services, ctx, model, code);
    return out;
  });

  /** TreeNodes of every dictionary (title = value); `code` narrows to one dictionary. DICT means all. */
  services.register('dict.tree', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const code = valueParam(ctx, 'code');
    const where = code && code.toUpperCase() !== 'DICT' ? { code } : {};
    const rows = await services.store.find(model, caller.tenantId, { where, orderBy: [{ column: 'sort', dir: 'asc' }] });
    const nodes = rows.map((r) => ({
      id: String(r.id),
      parentId: String(r.parentId ?? '0'),
      title: String(r.dictValue),
      key: String(r.dictKey ?? r.id),
      value: String(r.id),
      code: r.code,
    }));
    return nest(nodes as unknown as Row[], (n) => String(n.id), (n) => String(n.parentId));
  });
}
