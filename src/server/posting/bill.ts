/** A bill as posting sees it: its head and lines, the document block and the configured places. */
import type { DocumentDef } from '../../shared/document.ts';
import type { Places } from '../../shared/money/index.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';

export interface Bill {
  model: Model;
  lineModel?: Model;
  doc: DocumentDef;
  head: Row;
  lines: Row[];
  places: Places;
}

export function billLabel(bill: Bill): string {
  return `${bill.model.title}${bill.head[bill.doc.numberField] ?? ''}`;
}
