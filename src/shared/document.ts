/**
 * The `document` block of a bill's resource file (schemas/meta/resource.schema.json
 * #/definitions/document), read alike by the server engine and the client's action bar.
 */
import type * as Meta from '../generated/meta.ts';
import type { ResourceFile } from './resource.ts';

/** A bill state: a bill_status code, or `new` for a bill not yet saved. */
export type BillState = string;
export const NEW_BILL: BillState = 'new';

/** A row of the transition table. */
export type TransitionDef = DocumentDef['transitions'][number];

export type DocumentDef = Meta.Document;

export function documentOf(resource: ResourceFile | undefined): DocumentDef | undefined {
  return resource?.document;
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
