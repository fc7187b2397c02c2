/** A bill as posting sees it: its head and lines, the document block and the configured places. */
import type { DocumentDef } from '../../shared/document.ts';
import type { Places } from '../../shared/money/index.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import type { ClosedPeriod } from './periods.ts';

export interface Bill {
  model: Model;
  lineModel?: Model;
  doc: DocumentDef;
  head: Row;
  lines: Row[];
  places: Places;
  /** The tenant's document settings, read before the posting's transaction (its cache is not used inside one). */
  config?: Record<string, string>;
  /** The tenant's closed accounting periods, read with the settings (read inside the transaction when absent). */
  periods?: ClosedPeriod[];
  /** The date the posting's ledger rows carry (set by postBill / reverseBill, see periods.ts). */
  postDate?: string;
}

export function billLabel(bill: Bill): string {
  return `${bill.model.title}${bill.head[bill.doc.numberField] ?? ''}`;
}
