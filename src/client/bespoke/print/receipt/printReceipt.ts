/**
 * Prints a mall order's receipt (bill type 0819): the server answers it only to users whose phone
 * is in ERP_PRINT_LIMIT_PHONE (and says why to the others); the QR code of the mobile order detail
 * is drawn at 100×100 by qrcode, the receipt renders into the hidden print area on 80 mm paper as
 * long as the receipt, and the print starts 500 ms later (printInArea).
 */
import { createElement } from 'react';
import QRCode from 'qrcode';
import { formatDateTime } from '../../../../shared/dates.ts';
import { http } from '../../../api/http.ts';
import { printInArea } from '../printArea.tsx';
import { Receipt } from './Receipt.tsx';
import { receiptText } from './i18n.ts';
import type { ReceiptData } from './receiptApi.ts';

export const RECEIPT_WIDTH_MM = 80;

export async function printReceipt(url: string, id: string): Promise<void> {
  const data = await http.get<ReceiptData>(url, { id });
  const qr = await QRCode.toDataURL(data.orderUrl, { width: 100, margin: 0, errorCorrectionLevel: 'M' });
  const t = receiptText();
  await printInArea(createElement(Receipt, { data, qr, t, printedAt: `${t.printedAt}：${formatDateTime()}` }), { width: RECEIPT_WIDTH_MM, height: 'auto' }, '3mm');
}
