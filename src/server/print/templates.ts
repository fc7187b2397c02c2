/**
 * Print templates (系统设置 → 打印设置): one per bill type, naming the head fields, the line
 * columns, the paper and the footer of a printed bill. The browser renders and prints
 * (src/client/bespoke/print); the server knows which fields each bill type has, seeds a default
 * template for every bill type a tenant lacks, and answers a bill's template with the company
 * name and the names behind the bill's user ids.
 */
import type { FieldSchema, ResourceFile } from '../../shared/resource.ts';
import type { Registry } from '../engine/registry.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { Services } from '../services.ts';
import type { Db } from '../db/connect.ts';
import { badRequest } from '../errors.ts';
import { mustCaller, param, idList, type Ctx } from '../http/context.ts';
import { PLATFORM_TENANT } from '../engine/store.ts';

export interface PrintField {
  field: string;
  title: string;
  titleEn?: string;
  /** An amount or quantity: right-aligned, summed in the totals row, a candidate for words. */
  numeric?: boolean;
}

export interface PrintableBill {
  billType: string;
  title: string;
  titleEn?: string;
  resource: string;
  lineResource?: string;
  head: PrintField[];
  lines: PrintField[];
  kind: 'sales' | 'purchase' | 'money' | 'other';
}

/** Ids, links and bookkeeping: nothing a printed bill shows. */
const HIDDEN = new Set(['id', 'headId', 'sort', 'version', 'tenantId', 'isDeleted', 'sourceBodyId', 'sourceBillId', 'annexIds']);

function printable(name: string, prop: FieldSchema): boolean {
  if (HIDDEN.has(name) || !prop.title) return false;
  if (prop.type === 'array' || prop.type === 'object' || prop['x-lines']) return false;
  // An id shows through its name field (customerId → bartererName).
  return !/Ids?$/.test(name);
}

function fieldsOf(resource: ResourceFile): PrintField[] {
  return Object.entries(resource.entity.properties)
    .filter(([name, prop]) => printable(name, prop))
    .map(([name, prop]) => ({
      field: name,
      title: String(prop.title),
      ...(prop['x-titleEn'] ? { titleEn: String(prop['x-titleEn']) } : {}),
      ...(prop['x-decimal'] !== undefined ? { numeric: true } : {}),
    }));
}

function listColumns(resource: ResourceFile): string[] {
  return (resource.list?.columns ?? []).map((c) => (typeof c === 'string' ? c : c.field));
}

function kindOf(resource: ResourceFile): PrintableBill['kind'] {
  const doc = resource.document!;
  if (doc.settle) return 'money';
  if (doc.amounts?.price.startsWith('purchase')) return 'purchase';
  if (doc.amounts?.price.startsWith('sales')) return 'sales';
  return 'other';
}

/** Every bill type with its printable head fields and line columns (a kind of a bill with variants on its own). */
export function printableBills(registry: Pick<Registry, 'resources'>): Map<string, PrintableBill> {
  const out = new Map<string, PrintableBill>();
  for (const resource of registry.resources.values()) {
    const doc = resource.document;
    if (!doc?.billType) continue;
    const lineResource = doc.lines ? (resource.entity.properties[doc.lines]?.['x-lines'] as string | undefined) : undefined;
    const lines = lineResource ? registry.resources.get(lineResource) : undefined;
    const base = { resource: resource.resource, lineResource, head: fieldsOf(resource), lines: lines ? fieldsOf(lines) : [], kind: kindOf(resource) };
    const kinds = [{ billType: doc.billType, title: resource.title, titleEn: resource.titleEn }, ...(doc.variants?.values ?? [])];
    for (const k of kinds) if (!out.has(k.billType)) out.set(k.billType, { ...base, billType: k.billType, title: k.title, titleEn: k.titleEn });
  }
  return out;
}

/** Columns a crowded line table leaves out first. */
const SECONDARY = new Set(['taxRate', 'taxAmt', 'discountRate', 'discountPrice', 'discountAmt', 'isGift', 'costPrice', 'costAmt', 'couponAmt', 'feeAmt']);
const MAX_LINE_COLUMNS = 9;
/** Head columns of a list that a printed bill leaves out by default: shipping details filled later. */
const SHIPPING = new Set(['courierNo', 'logisticsCompanyName', 'logisticsCompanyId']);
const WORDS_FIELDS = ['finalAmt', 'totalAmt', 'amount', 'amt', 'precpAmt', 'settlementAmt', 'inAmt', 'outAmt'];
const SIGNATURES: Record<PrintableBill['kind'], string> = {
  sales: '制单人,审核人,仓管员,送货人,客户签收',
  purchase: '制单人,审核人,仓管员,供应商签字',
  money: '制单人,审核人,出纳,经办人',
  other: '制单人,审核人,经办人',
};

/**
 * The template a bill type starts with: the head fields of its list that are neither a state, a
 * yes/no flag, shipping details nor a figure (figures go to the totals row and the amount in words), remark last; the line columns of
 * its line list, the secondary ones dropped when there are more than nine; A4 portrait, three head
 * fields a row, the bill's title, and the signature line its kind is signed with.
 */
export function defaultTemplate(bill: PrintableBill, registry: Pick<Registry, 'resources'>): Row {
  const resource = registry.resources.get(bill.resource)!;
  const statusField = resource.document!.statusField;
  const headByName = new Map(bill.head.map((f) => [f.field, f]));
  const head = listColumns(resource).filter((name) => {
    const f = headByName.get(name);
    const flag = resource.entity.properties[name]?.['x-dict'] === 'yes_no';
    return f && !f.numeric && !flag && !SHIPPING.has(name) && name !== statusField && !/Status$/.test(name) && name !== 'createUserName' && name !== 'remark';
  });
  if (headByName.has('remark')) head.push('remark');
  const lineResource = bill.lineResource ? registry.resources.get(bill.lineResource) : undefined;
  const lineNames = new Set(bill.lines.map((f) => f.field));
  let lines = lineResource ? listColumns(lineResource).filter((name) => lineNames.has(name)) : [];
  if (lines.length > MAX_LINE_COLUMNS) lines = lines.filter((name) => !SECONDARY.has(name));
  const words = WORDS_FIELDS.find((name) => headByName.get(name)?.numeric) ?? bill.head.find((f) => f.numeric)?.field ?? '';
  return {
    billType: bill.billType,
    name: `${bill.title}默认模板`,
    title: bill.title,
    paper: 'A4',
    headColumns: 3,
    headFields: head.join(','),
    lineFields: lines.join(','),
    amountField: words,
    showTotals: 2,
    showCompany: 2,
    showPrintTime: 2,
    signatures: SIGNATURES[bill.kind],
    footer: '',
    fontSize: 12,
    remark: '',
  };
}

/** Adds the default template of every bill type the tenant has none for (inside syncTenant's transaction). */
export async function seedPrintTemplates(services: Services, actor: Actor, db: Db): Promise<void> {
  const model = services.m('print-template');
  const have = new Set((await services.store.find(model, actor.tenantId, {}, db)).map((r) => String(r.billType)));
  const missing = [...printableBills(services.registry).values()].filter((b) => !have.has(b.billType));
  if (missing.length) await services.store.insertMany(model, actor, missing.map((b) => defaultTemplate(b, services.registry)), db);
}

function billOf(services: Services, billType: string | undefined): PrintableBill {
  if (!billType) throw badRequest('请选择单据类型');
  const bill = printableBills(services.registry).get(billType);
  if (!bill) throw badRequest(`单据类型 ${billType} 没有可打印的单据`);
  return bill;
}

export function registerPrintHandlers(services: Services) {
  /** fields(billType): what a template of this bill type may show. */
  services.register('printTemplate.fields', async (ctx: Ctx) => {
    mustCaller(ctx);
    return billOf(services, param(ctx, 'billType'));
  });

  /**
   * forBill(billType, userIds): the tenant's template of the bill type (its default when an
   * administrator removed it), the company name for the heading, and the names of the users the
   * bill names (制单人, 审核人) so the footer shows people, not ids.
   */
  services.register('printTemplate.forBill', async (ctx: Ctx, model) => {
    const caller = mustCaller(ctx);
    const bill = billOf(services, param(ctx, 'billType'));
    const [saved] = await services.store.find(model, caller.tenantId, { where: { billType: bill.billType }, limit: 1 });
    const template = saved ?? defaultTemplate(bill, services.registry);
    // The heading is the company's name from 公司信息, else the tenant's name.
    const [company] = await services.store.find(services.m('company-info'), caller.tenantId, { limit: 1 });
    const [tenant] = company?.companyName ? [] : await services.store.find(services.m('tenant'), PLATFORM_TENANT, { where: { tenantId: caller.tenantId }, limit: 1 });
    const ids = idList(param(ctx, 'userIds')).slice(0, 20);
    const users = ids.length ? await services.store.find(services.m('user'), caller.tenantId, { where: { id: ids } }) : [];
    return {
      template,
      company: String(company?.companyName || tenant?.tenantName || ''),
      users: Object.fromEntries(users.map((u) => [String(u.id), String(u.realName || u.name || u.account || '')])),
      bill,
    };
  });
}
