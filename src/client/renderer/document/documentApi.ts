/** The calls of a bill: its document endpoints by action, and the reads of the engine's extras. */
import type { DocumentDef, TransitionDef } from '../../../shared/document.ts';
import type { EndpointDef, ResourceFile } from '../../../shared/resource.ts';
import { http, type QueryValue } from '../../api/http.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { formBlockOf } from '../form/types.ts';
import type { FormBlock } from '../form/types.ts';

export type Bill = Record<string, unknown>;

/**
 * The endpoint serving an action (POST preferred for actions that carry the bill): the engine's
 * own, or a custom one doing more around it (商城退货申请's 审核通过 also makes the sales return).
 */
export function actionEndpoint(resource: ResourceFile, t: TransitionDef): EndpointDef | undefined {
  const all = resource.api.endpoints.filter((e) => (e.op === 'document' || e.op === 'custom') && e.params?.action === t.action);
  return all.find((e) => e.method === 'POST') ?? all[0];
}

export function opEndpoint(resource: ResourceFile, op: EndpointDef['op']): EndpointDef | undefined {
  return resource.api.endpoints.find((e) => e.op === op);
}

/** One id per click, so a retried request is answered, not repeated. */
function idempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export async function runAction(resource: ResourceFile, t: TransitionDef, payload: Record<string, unknown>): Promise<Bill> {
  const endpoint = actionEndpoint(resource, t);
  if (!endpoint) throw new Error(`${resource.resource}: no endpoint for ${t.action}`);
  const url = endpointUrl(resource, endpoint.path);
  const options = { headers: { 'Idempotency-Key': idempotencyKey() }, timeout: endpoint.timeout };
  if (endpoint.method === 'POST') return http.post<Bill>(url, payload, options);
  return http.get<Bill>(url, payload as Record<string, QueryValue>, options);
}

async function fetchBill(resource: ResourceFile, id: string): Promise<Bill> {
  const detail = opEndpoint(resource, 'detail');
  const bill = await http.get<Bill | null>(endpointUrl(resource, detail?.path ?? 'detail'), { id });
  if (!bill) throw new Error('单据不存在或已被删除');
  return bill;
}

/** Bills asked for when 查看/编辑 was clicked, while the editor's code loads (taken once, never older than 5 s). */
const requested = new Map<string, { at: number; bill: Promise<Bill> }>();
const FRESH_MS = 5_000;

/** Starts reading a bill the editor is about to open, so the call runs beside the editor's code. */
export function prefetchBill(resource: ResourceFile, id: string): void {
  const bill = fetchBill(resource, id);
  bill.catch(() => undefined); // the editor's own load reports a failure
  requested.set(`${resource.resource}:${id}`, { at: Date.now(), bill });
}

export function loadBill(resource: ResourceFile, id: string): Promise<Bill> {
  const key = `${resource.resource}:${id}`;
  const early = requested.get(key);
  requested.delete(key);
  return early && Date.now() - early.at < FRESH_MS ? early.bill : fetchBill(resource, id);
}

export async function readExtra<T>(resource: ResourceFile, op: 'documentHistory' | 'documentPostings', id: string): Promise<T> {
  const endpoint = opEndpoint(resource, op);
  if (!endpoint) throw new Error(`${resource.resource}: no ${op}`);
  return http.get<T>(endpointUrl(resource, endpoint.path), { id });
}

/** The unsaved bill generated from a source bill (pull by id, or generate by number). */
export async function fromSource(resource: ResourceFile, doc: DocumentDef, key: { id?: string; number?: string }): Promise<Bill> {
  if (key.id) {
    const pull = opEndpoint(resource, 'documentPull');
    return http.get<Bill>(endpointUrl(resource, pull!.path), { id: key.id });
  }
  const generate = resource.api.endpoints.find((e) => e.op === 'documentGenerate' && (!e.params?.mode || e.params.mode === 'all')) ?? opEndpoint(resource, 'documentGenerate');
  return http.get<Bill>(endpointUrl(resource, generate!.path), { [doc.source?.numberParam ?? 'billNo']: key.number });
}

/** The head form: the resource's form block without the line collection (the line grid shows it). */
export function headFormBlock(resource: ResourceFile, linesField: string | undefined): FormBlock {
  const block = formBlockOf(resource);
  const keep = (f: unknown) => (typeof f === 'string' ? f : (f as { field: string }).field) !== linesField;
  return { ...block, mode: 'dialog', fields: block.fields?.filter(keep), groups: block.groups?.map((g) => ({ ...g, fields: g.fields.filter(keep) })) };
}

/** A new bill's head: the entity's defaults (a kind's page presets its kind this way) and today. */
export function newBillValues(resource: ResourceFile, dateField: string): Bill {
  const values: Bill = {};
  for (const [name, prop] of Object.entries(resource.entity.properties)) {
    if (prop.default !== undefined && !prop['x-readonly'] && !prop['x-virtual']) values[name] = prop.default;
  }
  values[dateField] = new Date().toISOString().slice(0, 10);
  return values;
}
