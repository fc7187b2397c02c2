/**
 * What the finance imports (应收/应付调整单 exportInfo, 期初财务 exportCustomerInfo /
 * exportSupplierInfo) share when they turn sheet rows into bill heads: partners found by their
 * code, signed amounts checked and rounded as posting rounds them, dates normalised, a business
 * dictionary's items matched by name or key. Every check answers a Chinese message for its row.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { Dec, fixed, toDec } from '../../shared/money/index.ts';

/** The partners (customer or supplier rows) whose 编码 is among `codes`, by code: one read per 500 codes. */
export async function partnersByCode(services: Services, tenantId: string, resource: string, codes: string[]): Promise<Map<string, Row>> {
  const model = services.m(resource);
  const found = new Map<string, Row>();
  const wanted = [...new Set(codes.filter(Boolean))];
  for (let i = 0; i < wanted.length; i += 500) {
    for (const row of await services.store.find(model, tenantId, { where: { bartererCode: wanted.slice(i, i + 500) } })) found.set(String(row.bartererCode), row);
  }
  return found;
}

/** A signed, non-zero amount at the amount places, or the reason it is not one. */
export function signedAmount(text: string, places: number, label = '金额'): { amount: string } | { error: string } {
  if (!text) return { error: `请填写${label}` };
  const value = toDec(text);
  if (!value) return { error: `${label}「${text}」不是有效数字` };
  const amount = fixed(value, places);
  if (new Dec(amount).isZero()) return { error: `${label}不能为0` };
  return { amount };
}

/** yyyy-MM-dd from yyyy-MM-dd, yyyy/M/d or yyyy.M.d (a real calendar day), else undefined. */
export function normalDate(text: string): string | undefined {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${m[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The tenant's live items of a business dictionary (dict-biz), as key → value. */
export async function bizDictItems(services: Services, tenantId: string, code: string): Promise<Map<string, string>> {
  const rows = await services.store.find(services.m('dict-biz'), tenantId, { where: { code }, orderBy: [{ column: 'sort', dir: 'asc' }] });
  return new Map(rows.filter((r) => String(r.parentId) !== '0' && Number(r.isSealed ?? 0) === 0).map((r) => [String(r.dictKey), String(r.dictValue)]));
}

/** The dictionary key a cell names, by its value (折让) or its key (1). */
export function dictKeyOf(items: Map<string, string>, text: string): string | undefined {
  if (items.has(text)) return text;
  for (const [key, value] of items) if (value === text) return key;
  return undefined;
}
