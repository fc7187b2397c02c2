/**
 * The `document` block of a bill's resource file (schemas/meta/resource.schema.json
 * #/definitions/document), read alike by the server engine and the client's action bar.
 */
import type * as Meta from '../generated/meta.ts';
import type { ResourceFile } from './resource.ts';
import { evaluate, type Expr } from './expr.ts';

/** A bill state: a bill_status code, or `new` for a bill not yet saved. */
export type BillState = string;
export const NEW_BILL: BillState = 'new';

/** A row of the transition table. */
export type TransitionDef = DocumentDef['transitions'][number];

export type DocumentDef = Meta.Document;

export function documentOf(resource: ResourceFile | undefined): DocumentDef | undefined {
  return resource?.document;
}

/** The resource a bill's lines are rows of (`x-lines` on its lines field), if it has lines. */
export function linesResourceOf(resource: ResourceFile): string | undefined {
  const field = resource.document?.lines;
  return field ? (resource.entity.properties[field]?.['x-lines'] as string | undefined) : undefined;
}

export function transitionOf(doc: DocumentDef, action: string): TransitionDef | undefined {
  return doc.transitions.find((t) => t.action === action);
}

/**
 * The actions a bill in `state` offers to someone holding `held` button codes: the same table the
 * server applies, so a button shown is a call allowed.
 */
export function availableActions(doc: DocumentDef, state: BillState, held: (code: string) => boolean): TransitionDef[] {
  return doc.transitions.filter((t) => t.from.includes(state) && (!t.perm || held(t.perm)));
}

/** The bill's own field for each computed line figure (its price and amount fields are named per bill). */
export function figureFields(doc: DocumentDef) {
  return {
    qty: 'qty',
    taxPrice: 'taxPrice',
    price: doc.amounts?.price ?? 'price',
    discountPrice: 'discountPrice',
    discountAmt: 'discountAmt',
    amount: doc.amounts?.amount ?? 'amount',
    totalAmt: 'totalAmt',
    taxAmt: 'taxAmt',
    couponAmt: 'couponAmt',
    finalAmt: 'finalAmt',
  } as const satisfies Record<string, string>;
}

export type VariantDef = NonNullable<DocumentDef['variants']>['values'][number];

/** The kind of a bill with variants whose head field holds `value` (收支单 6002 → 费用单). */
export function variantOf(doc: DocumentDef, value: unknown): VariantDef | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return doc.variants?.values.find((v) => String(v.value) === String(value));
}

/** The kind a menu leaf shows, by the leaf's bill type (菜单 费用单 0855 → 6002). */
export function variantByBillType(doc: DocumentDef | undefined, billType: string | undefined): VariantDef | undefined {
  return billType ? doc?.variants?.values.find((v) => v.billType === billType) : undefined;
}

/**
 * The document block as it applies to one bill: its kind's bill type (numbering, ledger rows),
 * and no party posting when `posting.partyIf` does not hold on the head (收支单 not on account).
 */
export function documentFor(doc: DocumentDef, head: Record<string, unknown>): DocumentDef {
  const variant = doc.variants ? variantOf(doc, head[doc.variants.field]) : undefined;
  let out = variant ? { ...doc, billType: variant.billType } : doc;
  const posting = doc.posting;
  if (posting?.partyIf !== undefined && !evaluate(posting.partyIf as Expr, head)) {
    const { party: _party, partyBy: _partyBy, partyIf: _partyIf, ...rest } = posting;
    void _party;
    void _partyBy;
    void _partyIf;
    out = { ...out, posting: rest };
  }
  return out;
}
