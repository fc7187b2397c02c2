/**
 * The mall receipt (小票, bill type 0819) on 80 mm paper: the order head, its lines, pickup at the
 * salesroom (isSalesroom 2: roomName, areaName, address) or delivery to the contact, and a 100×100
 * QR code linking to the mobile order detail (spec 000 §6).
 */
import { formatDecimal, decimalPlaces } from '../../../renderer/common/format.ts';
import { SELF_PICKUP, type ReceiptData } from './receiptApi.ts';
import type { ReceiptText } from './i18n.ts';
import './receipt.css';

export function Receipt({ data, qr, t, printedAt }: { data: ReceiptData; qr: string; t: ReceiptText; printedAt: string }) {
  const amount = (v: unknown) => formatDecimal(v ?? '0', decimalPlaces('amount'));
  const qty = (v: unknown) => formatDecimal(v ?? '0', decimalPlaces('quantity'));
  const mall = data.salesOrderHeadMallVO;
  const pickup = Number(mall.isSalesroom) === SELF_PICKUP;
  const room = mall.salesroomVO ?? {};
  const contact = mall.customercontactsVO ?? {};
  return (
    <div className="receipt" data-testid="receipt">
      {data.company && <div className="rc-company">{data.company}</div>}
      <div className="rc-title">{data.title}</div>
      <div className="rc-row">
        {t.billNo}：{data.head.billNo}
      </div>
      <div className="rc-row">
        {t.billDate}：{data.head.billDate}
      </div>
      {data.head.bartererName && (
        <div className="rc-row">
          {t.customer}：{data.head.bartererName}
        </div>
      )}
      <table className="rc-lines">
        <thead>
          <tr>
            <th className="rc-name">{t.goods}</th>
            <th>{t.qty}</th>
            <th>{t.amount}</th>
          </tr>
        </thead>
        <tbody>
          {data.lines.map((line, i) => (
            <tr key={i}>
              <td className="rc-name">
                {line.commInfoName}
                {line.standard ? ` ${line.standard}` : ''}
                <div className="rc-sub">
                  {formatDecimal(line.taxPrice ?? '0', decimalPlaces('price'))} / {line.unitName}
                </div>
              </td>
              <td className="rc-num">{qty(line.qty)}</td>
              <td className="rc-num">{amount(line.totalAmt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="rc-total">
        <span>
          {t.totalQty}：{qty(data.head.totalQty)}
        </span>
        <span>
          {t.total}：￥{amount(data.head.finalAmt)}
        </span>
      </div>
      <div className="rc-block" data-testid="receipt-delivery">
        <div className="rc-mode">{pickup ? t.pickup : t.delivery}</div>
        {pickup ? (
          <>
            <div>
              {t.room}：{room.roomName ?? ''}
            </div>
            <div>
              {t.area}：{room.areaName ?? ''}
            </div>
            <div>
              {t.address}：{room.address ?? ''}
            </div>
          </>
        ) : (
          <>
            <div>
              {t.contact}：{contact.contacts ?? ''}
            </div>
            <div>
              {t.phone}：{contact.phone ?? ''}
            </div>
            <div>
              {t.address}：{[contact.areaName, contact.address].filter(Boolean).join(' ')}
            </div>
          </>
        )}
      </div>
      {data.head.remark && (
        <div className="rc-row">
          {t.remark}：{data.head.remark}
        </div>
      )}
      <div className="rc-qr">
        <img src={qr} width={100} height={100} alt={t.scan} data-url={data.orderUrl} data-testid="receipt-qr" />
        <div>{t.scan}</div>
      </div>
      <div className="rc-foot">{printedAt}</div>
    </div>
  );
}
