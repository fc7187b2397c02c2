/**
 * Supplier-portal push (pushSrm) and WJYP stock sync (pushwjyp) through the integration outbox:
 * no external system is ever called. Each push writes one 待发送 message (target, topic, bill,
 * summary, JSON payload) to erp_integration_outbox, insert-only, for a sender to deliver later.
 * Pushing an order again writes another message (a re-send); earlier messages stay as they were.
 */
import type { Services } from '../services.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import { badRequest } from '../errors.ts';
import { requireVersion } from '../engine/records.ts';
import { documentModel, loadBill, stateName, tenantPlaces } from '../engine/document/context.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { fixed } from '../../shared/money/index.ts';
import { updateBillHead } from './freight.ts';

export const OUTBOX_PENDING = 1;
/** Purchase orders a supplier may see: approved (已审核) and completed (已完成). */
const PUSHABLE = ['1304', '1309'];
const READ_CHUNK = 2000;
const NAME_CHUNK = 500;

export interface OutboxMessage {
  target: 'SRM' | 'WJYP';
  topic: string;
  billType?: string | null;
  billId?: string | null;
  billNo?: string | null;
  summary: string;
  payload: unknown;
}

/** Writes one pending message (inside the caller's transaction when there is one); answers it without its payload. */
export async function writeOutbox(services: Services, actor: Actor, message: OutboxMessage): Promise<Row> {
  const row = await services.store.insert(services.m('integration-outbox'), actor, {
    target: message.target,
    topic: message.topic,
    billType: message.billType ?? null,
    billId: message.billId ?? null,
    billNo: message.billNo ?? null,
    summary: message.summary.slice(0, 500),
    payload: JSON.stringify(message.payload),
    sendStatus: OUTBOX_PENDING,
  });
  const { payload: _payload, ...shown } = row;
  void _payload;
  return shown;
}

/** Every stock balance of the tenant (warehouse, goods, quantity), read in chunks, with codes and names. */
async function stockBalances(services: Services, actor: Actor): Promise<Row[]> {
  const { store } = services;
  const model = services.internal.stockBalance;
  const places = await tenantPlaces(services, actor.tenantId);
  const rows: Row[] = [];
  for (let offset = 0; ; offset += READ_CHUNK) {
    const chunk = await store.find(model, actor.tenantId, {
      orderBy: [
        { column: 'depot_id', dir: 'asc' },
        { column: 'comm_info_id', dir: 'asc' },
      ],
      limit: READ_CHUNK,
      offset,
    });
    rows.push(...chunk);
    if (chunk.length < READ_CHUNK) break;
  }
  const names = async (resource: string, ids: string[]) => {
    const out = new Map<string, Row>();
    for (let i = 0; i < ids.length; i += NAME_CHUNK) {
      for (const r of await store.find(services.m(resource), actor.tenantId, { where: { id: ids.slice(i, i + NAME_CHUNK) } })) out.set(String(r.id), r);
    }
    return out;
  };
  const depots = await names('depot', [...new Set(rows.map((r) => String(r.depotId)))]);
  const goods = await names('goods', [...new Set(rows.map((r) => String(r.commInfoId)))]);
  return rows.map((r) => ({
    depotId: String(r.depotId),
    depotCode: depots.get(String(r.depotId))?.depotCode ?? null,
    depotName: depots.get(String(r.depotId))?.depotName ?? null,
    commInfoId: String(r.commInfoId),
    commInfoCode: goods.get(String(r.commInfoId))?.commInfoCode ?? null,
    commInfoName: goods.get(String(r.commInfoId))?.commInfoName ?? null,
    qty: fixed(String(r.qty ?? '0'), places.quantity),
  }));
}

export function registerIntegrationHandlers(services: Services) {
  /**
   * GET pushSrm (id, version): an approved or completed purchase order, head and lines, to the
   * supplier portal's outbox; the order is marked 已推送 (srmStatus 2, srmPushTime) by one update
   * guarded by its version, so a stale version is refused and nothing is written.
   */
  services.register('purchaseOrder.pushSrm', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const version = requireVersion({ version: param(ctx, 'version') });
    const outbox = services.m('integration-outbox');
    const now = formatDateTime();
    return services.store.transaction(async () => {
      await updateBillHead(services, caller, dm, id, version, { srmStatus: '2', srmPushTime: now }, (row) => {
        const state = String(row[dm.doc.statusField] ?? '');
        if (!PUSHABLE.includes(state)) {
          throw badRequest(`只有已审核的采购订单可以推送到供应商门户，该订单当前状态为「${stateName(services, dm, state)}」`, { status: state });
        }
      });
      const bill = await loadBill(services, caller, dm, id);
      const { [dm.doc.lines ?? 'bodyList']: lines, ...head } = bill;
      const orderLines = (lines as Row[] | undefined) ?? [];
      const earlier = await services.store.count(outbox, caller.tenantId, { where: { target: 'SRM', billId: id } });
      const resend = earlier > 0 ? `（重发，第${earlier + 1}次推送）` : '';
      const message = await writeOutbox(services, caller, {
        target: 'SRM',
        topic: 'purchaseOrder.push',
        billType: dm.doc.billType,
        billId: id,
        billNo: String(head[dm.doc.numberField] ?? ''),
        summary: `采购订单 ${head[dm.doc.numberField]}：${head.bartererName ?? ''}，${orderLines.length} 行，价税合计 ${head.totalAmt ?? '0'}${resend}`,
        payload: { head, lines: orderLines },
      });
      return {
        outbox: message,
        bill: { id, billNo: head[dm.doc.numberField], version: head.version, srmStatus: head.srmStatus, srmPushTime: head.srmPushTime },
      };
    });
  });

  /** GET pushwjyp: the tenant's current stock balances (goods, warehouse, quantity) to the WJYP outbox. */
  services.register('integration.pushWjyp', async (ctx) => {
    const caller = mustCaller(ctx);
    const items = await stockBalances(services, caller);
    return writeOutbox(services, caller, {
      target: 'WJYP',
      topic: 'inventory.sync',
      summary: `库存 ${items.length} 条`,
      payload: { syncTime: formatDateTime(), count: items.length, items },
    });
  });
}
