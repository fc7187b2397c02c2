/**
 * The mall receipt (小票, bill type 0819, spec 000 §6): a mall order printed for the buyer with its
 * head, lines, pickup or delivery details and a QR code of the mobile order detail. Only users
 * whose phone is listed in the system parameter ERP_PRINT_LIMIT_PHONE may print it (the counter
 * staff of the mall's salesrooms): the rule is the server's, the button only asks.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { PLATFORM_TENANT } from '../engine/store.ts';
import { mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { documentModel, loadBill } from '../engine/document/context.ts';
import { MALL_SOURCE } from './orders.ts';

export const RECEIPT_BILL_TYPE = '0819';
export const SELF_PICKUP = 2;
const DEFAULT_ORDER_URL = 'https://m.example.com/pages/order/detail?id={id}';

/** Phones in a config value: separated by commas (either width), 、, semicolons or spaces. */
export function phoneList(value: unknown): string[] {
  return String(value ?? '')
    .split(/[\s,，;；、]+/)
    .map((p) => p.trim())
    .filter(Boolean);
}

async function configValue(services: Services, tenantId: string, key: string): Promise<string> {
  const [row] = await services.store.find(services.m('sysconfig'), tenantId, { where: { configKey: key }, limit: 1 });
  return String(row?.configValue ?? '');
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export function registerReceiptHandlers(services: Services) {
  /** salesorderhead/receipt (id): the order as its receipt prints, for an allowed user. */
  services.register('salesOrder.receipt', async (ctx: Ctx) => {
    const caller = mustCaller(ctx);
    const id = param(ctx, 'id');
    if (!id) throw badRequest('缺少参数 id');
    const [user] = await services.store.find(services.m('user'), caller.tenantId, { where: { id: caller.userId }, limit: 1 });
    const phone = text(user?.phone).trim();
    if (!phone || !phoneList(await configValue(services, caller.tenantId, 'ERP_PRINT_LIMIT_PHONE')).includes(phone)) {
      throw forbidden('您的手机号不在小票打印名单中（系统参数 ERP_PRINT_LIMIT_PHONE），不能打印小票');
    }
    const dm = documentModel(services, services.m('sales-order'));
    const scope = await services.perms.dataScope(caller, dm.model);
    const [head] = await services.store.find(dm.model, caller.tenantId, { where: { id }, conditions: scope ? [scope] : [] });
    if (!head) throw notFound('单据不存在或已被删除');
    if (text(head.orderSource) !== MALL_SOURCE) throw badRequest('只有商城订单可以打印小票');
    const bill = await loadBill(services, caller, dm, id);
    const [tenant] = await services.store.find(services.m('tenant'), PLATFORM_TENANT, { where: { tenantId: caller.tenantId }, limit: 1 });
    const template = (await configValue(services, caller.tenantId, 'MALL_ORDER_URL')) || DEFAULT_ORDER_URL;
    const pickup = Number(bill.isSalesroom) === SELF_PICKUP;
    return {
      billType: RECEIPT_BILL_TYPE,
      title: '商城订单小票',
      company: text(tenant?.tenantName),
      head: {
        id: text(bill.id),
        billNo: text(bill.billNo),
        billDate: text(bill.billDate),
        bartererName: text(bill.bartererName),
        staffName: text(bill.staffName),
        totalQty: text(bill.totalQty),
        finalAmt: text(bill.finalAmt),
        remark: text(bill.remark),
      },
      lines: ((bill.bodyList as Row[] | undefined) ?? []).map((l) => ({
        commInfoName: text(l.commInfoName),
        standard: text(l.standard),
        unitName: text(l.unitName),
        qty: text(l.qty),
        taxPrice: text(l.taxPrice),
        totalAmt: text(l.totalAmt),
      })),
      // As the mall writes it (spec 000 §3): isSalesroom 2 is self pickup at salesroomVO, otherwise
      // delivery to customercontactsVO.
      salesOrderHeadMallVO: {
        isSalesroom: pickup ? SELF_PICKUP : 1,
        ...(pickup
          ? { salesroomVO: { roomName: text(bill.roomName), areaName: text(bill.roomAreaName), address: text(bill.roomAddress) } }
          : { customercontactsVO: { contacts: text(bill.contacts), phone: text(bill.contactsPhone), areaName: text(bill.contactsAreaName), address: text(bill.contactsAddress) } }),
      },
      orderUrl: template.replaceAll('{id}', encodeURIComponent(text(bill.id))).replaceAll('{billNo}', encodeURIComponent(text(bill.billNo))),
    };
  });
}
