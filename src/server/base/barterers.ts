import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import { parseFilters, parsePaging } from '../engine/query.ts';
import { badRequest } from '../errors.ts';

/** Barterers: customers, suppliers, logistics companies and union organisations share these fields. */
const BARTERERS: { resource: string; type: string }[] = [
  { resource: 'customer', type: '1' },
  { resource: 'supplier', type: '2' },
  { resource: 'logistics-company', type: '3' },
  { resource: 'union-org', type: '4' },
];

/** What the company lookup fills into a customer form. */
const COMPANY_FIELDS = ['bartererName', 'contactPerson', 'telephone', 'bankName', 'bankAccount', 'taxNo', 'address', 'areaCode', 'areaName'];

function pick(row: Row, fields: string[]): Row {
  return Object.fromEntries(fields.map((f) => [f, row[f] ?? '']));
}

async function searchByName(services: Services, ctx: Ctx, text: string, exact: boolean, limit: number): Promise<Row[]> {
  const caller = mustCaller(ctx);
  const seen = new Set<string>();
  const out: Row[] = [];
  for (const source of ['union-org', 'customer', 'supplier']) {
    const model = services.m(source);
    const conditions = parseFilters(model, { [exact ? 'bartererName_equal' : 'bartererName']: text }, 'map');
    const rows = await services.store.find(model, caller.tenantId, { conditions, limit, orderBy: [{ column: 'update_time', dir: 'desc' }] });
    for (const row of rows) {
      const name = String(row.bartererName);
      if (seen.has(name)) continue;
      seen.add(name);
      out.push(pick(row, COMPANY_FIELDS));
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/** Is this phone used by another live row of the model (other than `exceptId`)? 400 with the message if so. */
async function phoneFree(services: Services, ctx: Ctx, model: Model, phone: string | undefined, exceptId: string | undefined, message: string) {
  const caller = mustCaller(ctx);
  if (!phone) throw badRequest('手机号码不能为空');
  if (!/^1\d{10}$/.test(phone)) throw badRequest(phone.length !== 11 ? '手机号码长度不为11位' : '请输入正确的手机号码');
  const rows = await services.store.find(model, caller.tenantId, { where: { phone } });
  if (rows.some((r) => String(r.id) !== String(exceptId ?? ''))) throw badRequest(message);
  return true;
}

export function registerBartererHandlers(services: Services) {
  services.register('customer.searchByKeywords', async (ctx) => {
    const keywords = param(ctx, 'keywords', 'keyword', 'bartererName') ?? '';
    if (!keywords.trim()) return { records: [], total: 0, size: 0, current: 1, pages: 0 };
    const { size } = parsePaging({ size: ctx.query.size ?? 100 });
    const records = await searchByName(services, ctx, keywords.trim(), false, size);
    return { records, total: records.length, size, current: 1, pages: 1 };
  });

  services.register('customer.searchByCustomerName', async (ctx) => {
    const name = param(ctx, 'customerName', 'bartererName') ?? '';
    if (!name.trim()) throw badRequest('请输入客户名称');
    return (await searchByName(services, ctx, name.trim(), true, 1))[0] ?? null;
  });

  /** Without bartererId: the barterer types; with it: which kind of barterer the id is. */
  services.register('customer.selectBartererType', async (ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'bartererId', 'id');
    if (!id) {
      const dict = services.m('dict');
      return (await services.store.find(dict, caller.tenantId, { where: { code: 'barterer_type' } })).filter((r) => String(r.parentId) !== '0');
    }
    for (const { resource, type } of BARTERERS) {
      const row = await services.store.get(services.m(resource), caller.tenantId, id);
      if (row) return { bartererId: id, bartererType: type, bartererName: row.bartererName };
    }
    return null;
  });

  services.register('customerContact.checkPhone', async (ctx, model) =>
    phoneFree(services, ctx, model, param(ctx, 'phone'), param(ctx, 'contactsId', 'id'), '手机号码已存在'),
  );

  services.register('member.checkPhone', async (ctx, model) =>
    phoneFree(services, ctx, model, param(ctx, 'phone'), param(ctx, 'memberId', 'id'), '该手机号码已被其他会员使用'),
  );

  services.register('supplier.supplierClassify', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'supplierId', 'id');
    if (!id) throw badRequest('缺少参数 supplierId');
    const row = await services.store.get(model, caller.tenantId, id);
    if (!row) return null;
    return { supplierId: id, classifyIds: String(row.classifyIds ?? '').split(',').filter(Boolean) };
  });

  /** Active suppliers (not 4702 停止合作) and active customers in one page, for picking any trading partner. */
  services.register('supplier.selectSupplierUnionCustomer', async (ctx) => {
    const caller = mustCaller(ctx);
    const { current, size } = parsePaging(ctx.query);
    const filters: Record<string, unknown> = {};
    for (const key of ['bartererName', 'bartererCode']) if (ctx.query[key]) filters[key] = ctx.query[key];
    const parts: Row[] = [];
    for (const [resource, type, where] of [
      ['supplier', '2', { status: 1, supplierStatus: ['4701', '4703'] }],
      ['customer', '1', { status: 1 }],
    ] as const) {
      const model = services.m(resource);
      const rows = await services.store.find(model, caller.tenantId, {
        where: where as Row,
        conditions: parseFilters(model, filters, 'map'),
        orderBy: [{ column: 'barterer_name', dir: 'asc' }],
        limit: current * size,
      });
      const totalOf = await services.store.count(model, caller.tenantId, { where: where as Row, conditions: parseFilters(model, filters, 'map') });
      parts.push({ rows: rows.map((r) => ({ ...pick(r, ['id', 'bartererCode', 'bartererName', 'contactPerson', 'telephone']), bartererType: type })), total: totalOf });
    }
    const all = parts.flatMap((p) => p.rows as Row[]).sort((a, b) => String(a.bartererName).localeCompare(String(b.bartererName), 'zh'));
    const total = parts.reduce((n, p) => n + Number(p.total), 0);
    return { records: all.slice((current - 1) * size, current * size), total, size, current, pages: Math.ceil(total / size) };
  });
}
