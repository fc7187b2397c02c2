/**
 * The general ledger: every posting writes its bill's voucher (schema document.posting.voucher,
 * accounts in schemas/accounts.json) in the same transaction as its stock and party rows, so the
 * ledger's 库存商品, 应收账款 and 应付账款 always equal the stock and party balances; a flush writes the
 * mirror of every row, dated like the flush. Amounts are debit-signed (a credit is negative) and each
 * voucher sums to zero: its `rest` line takes what balances it.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { Bill } from './bill.ts';
import { Dec, type Decimal } from '../../shared/money/index.ts';
import { evaluate, type Expr } from '../../shared/expr.ts';

type Stage = 'post' | 'postin';

/** The stock and party ledger entries a stage writes (a counter sale writes its receipt with its posting). */
const STOCK_ENTRIES: Record<Stage, string[]> = { post: ['post'], postin: ['postin'] };
const PARTY_ENTRIES: Record<Stage, string[]> = { post: ['post', 'receipt'], postin: [] };
const MIRROR: Record<string, string> = { post: 'reverse', postin: 'revin' };

const sum = (rows: Row[], field: string) => rows.reduce<Decimal>((total, r) => total.plus(String(r[field] ?? '0')), new Dec(0));

function billRef(bill: Bill) {
  return {
    resource: bill.model.name,
    billType: bill.doc.billType,
    billId: String(bill.head.id),
    billNo: String(bill.head[bill.doc.numberField] ?? ''),
  };
}

/** Writes the voucher of a posting stage (the bill's ledger rows of that stage are already written). */
export async function postVoucher(services: Services, actor: Actor, bill: Bill, stage: Stage): Promise<void> {
  const rules = bill.doc.posting?.voucher;
  if (!rules) return;
  const { store, internal } = services;
  const billId = String(bill.head.id);
  const stockRows = await store.find(internal.stockLedger, actor.tenantId, { where: { billId, entry: STOCK_ENTRIES[stage] } });
  const partyRows = PARTY_ENTRIES[stage].length ? await store.find(internal.partyLedger, actor.tenantId, { where: { billId, entry: PARTY_ENTRIES[stage] } }) : [];
  const kind = partyRows[0] ? (String(partyRows[0].kind) as 'AR' | 'AP') : undefined;
  const partyId = partyRows[0] ? String(partyRows[0].partyId) : '';
  const partyAmount = sum(partyRows, 'amount');
  const sources: Record<string, Decimal> = { stock: sum(stockRows, 'value'), party: kind === 'AP' ? partyAmount.neg() : partyAmount };

  const lines: { account: string; partyKind: string; partyId: string; amount: Decimal }[] = [];
  let restAccount: string | undefined;
  for (const rule of rules) {
    if (rule.when !== undefined && !evaluate(rule.when as Expr, bill.head)) continue;
    const negate = rule.amount.startsWith('-');
    const source = negate ? rule.amount.slice(1) : rule.amount;
    const party = rule.account === 'party';
    const account = party ? (kind ? services.registry.chart.party[kind] : '') : rule.account;
    if (source === 'rest') {
      restAccount = account;
      continue;
    }
    const value = sources[source] ?? (stage === 'post' ? new Dec(String(bill.head[source] ?? '0') || '0') : new Dec(0));
    if (!account) continue; // a party line of a bill without a partner (paid on the spot)
    lines.push({ account, partyKind: party ? kind! : '', partyId: party ? partyId : '', amount: negate ? value.neg() : value });
  }
  const rest = lines.reduce<Decimal>((total, l) => total.minus(l.amount), new Dec(0));
  if (restAccount) lines.push({ account: restAccount, partyKind: '', partyId: '', amount: rest });

  // One row per account and partner; nothing for a zero amount.
  const merged = new Map<string, (typeof lines)[number]>();
  for (const line of lines) {
    const key = `${line.account}|${line.partyId}`;
    const known = merged.get(key);
    if (known) known.amount = known.amount.plus(line.amount);
    else merged.set(key, { ...line });
  }
  const ref = billRef(bill);
  const rows = [...merged.values()]
    .filter((l) => !l.amount.isZero())
    .map((l) => ({ ...ref, entry: stage, account: l.account, partyKind: l.partyKind, partyId: l.partyId, amount: l.amount.toFixed(), postDate: bill.postDate ?? null }));
  if (rows.length) await store.insertMany(internal.glEntry, actor, rows);
}

/** Flush: the mirror of every voucher row the bill posted, dated like the flush. */
export async function reverseVoucher(services: Services, actor: Actor, bill: Bill): Promise<void> {
  if (!bill.doc.posting?.voucher) return;
  const { store, internal } = services;
  const posted = await store.find(internal.glEntry, actor.tenantId, { where: { billId: String(bill.head.id), entry: Object.keys(MIRROR) } });
  const rows = posted.map((row) => ({
    ...billRef(bill),
    entry: MIRROR[String(row.entry)],
    account: row.account,
    partyKind: row.partyKind ?? '',
    partyId: row.partyId ?? '',
    amount: new Dec(String(row.amount)).neg().toFixed(),
    postDate: bill.postDate ?? null,
  }));
  if (rows.length) await store.insertMany(internal.glEntry, actor, rows);
}
