/**
 * The `document` block of a bill's resource file (schemas/meta/resource.schema.json
 * #/definitions/document), read alike by the server engine and the client's action bar.
 */
import type { ResourceFile } from './resource.ts';

/** A bill state: a bill_status code, or `new` for a bill not yet saved. */
export type BillState = string;
export const NEW_BILL: BillState = 'new';

export interface TransitionDef {
  action: string;
  title?: string;
  titleEn?: string;
  from: BillState[];
  /** a state, or `deleted` (removal of a draft) */
  to: BillState;
  save?: boolean;
  perm?: string;
  requires?: string[];
  params?: string[];
  effect?: 'post' | 'reverse';
  danger?: boolean;
}

export interface DocumentDef {
  statusField: string;
  statusDict?: string;
  billType: string;
  numberField: string;
  dateField?: string;
  partnerField?: string;
  depotField?: string;
  lines?: string;
  editable?: BillState[];
  amounts?: { basis?: 'inclusive' | 'exclusive'; price: string; amount: string; sign?: 1 | -1 };
  totals?: Record<string, string>;
  posting?: { stock?: 1 | -1; cost?: 'line' | 'average' | 'source'; party?: 'AR' | 'AP' };
  source?: { resource: string; numberParam?: string; states?: BillState[]; limit?: 'remaining' | 'returnable' };
  transitions: TransitionDef[];
}

export function documentOf(resource: ResourceFile | undefined): DocumentDef | undefined {
  return resource?.document as DocumentDef | undefined;
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
