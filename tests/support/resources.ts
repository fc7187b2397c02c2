/**
 * Reads the resource files under schemas/ (the same files the server serves) so suites can
 * enumerate resources instead of hand-picking them, and builds valid entity bodies from them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate, type Expr } from '../../src/shared/expr.ts';
import type { Api } from './client.ts';
import { expectOk } from './client.ts';
import { sampleFor } from './regex-sample.ts';
import { resolveResource } from '../../src/shared/fragments.ts';
import { readFragments } from '../../src/shared/fragments-fs.ts';
import { NOT_RESOURCES } from '../../src/server/engine/registry.ts';
import type { ResourceFile } from '../../src/shared/resource.ts';
import { Dec } from '../../src/shared/money/index.ts';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCHEMAS = path.join(REPO, 'schemas');

export interface Field {
  type?: string | string[];
  title: string;
  format?: string;
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  items?: unknown;
  enum?: unknown[];
  oneOf?: { const: unknown }[];
  default?: unknown;
  errorMessage?: Record<string, string>;
  'x-dict'?: string;
  'x-dictBiz'?: string;
  'x-dictOpen'?: boolean;
  'x-ref'?: string;
  'x-multi'?: boolean;
  'x-decimal'?: number | string;
  'x-virtual'?: boolean;
  'x-readonly'?: boolean;
  'x-secret'?: boolean;
  'x-column'?: string;
  'x-requiredIf'?: Expr;
  'x-differentFrom'?: { field: string; message: string };
}

export interface Endpoint {
  path: string;
  method: 'GET' | 'POST';
  op: string;
  handler?: string;
  public?: boolean;
  /** Fixed filters of reads; options of code, setFields, tag, import and export calls. */
  params?: Record<string, unknown>;
}

export interface Resource {
  file: string;
  resource: string;
  title: string;
  module?: string;
  table: { name: string; scope?: string; unique?: { fields: string[] }[]; tree?: { parentField: string; keyField?: string; rootValue?: string }; view?: { tables: string[] } };
  entity: { properties: Record<string, Field>; required?: string[]; errorMessage?: { required?: Record<string, string> } };
  permission?: string;
  api: { base: string; endpoints: Endpoint[] };
  /** A bill's document block: its lines field and how amounts are typed. */
  document?: {
    lineCheck?: string;
    lines?: string;
    amounts?: { basis?: string; price: string; sign?: number };
    source?: { resource: string; required?: boolean };
    settle?: { amount: string; target?: string };
    count?: { book: string; counted: string };
    items?: { item: string; amount: string };
    transitions?: { action: string; save?: boolean; effect?: string }[];
  };
  /** Display fields filled from another resource (natureName from natureId …). */
  lookups?: { field: string; from: string; resource: string; take: string; match?: string; multi?: boolean }[];
}

/**
 * Resources the generic suites cannot write from a made-up body, each with its own tests instead:
 * read-only views (inquiries.test.ts), bills whose lines must come from a posted source bill
 * (invoices: purchasing.test.ts), money bills whose lines settle posted bills (settlement.test.ts)
 * and bills written only by a one-step save-and-post (retail:
 * retail.test.ts, which also covers reading them back), stock counts (stocktake.test.ts), and the lines of a resource saved only by
 * its own handlers (配送单's sales-outs, each unique to one run: delivery.test.ts), and the workflow's
 * tables (BPMN models checked on save, definitions, instances and tasks the engine writes: workflow.test.ts).
 */
export function writtenElsewhere(r: Resource): boolean {
  if (r.table.view) return true;
  if (r.document?.source?.required) return true;
  // A receipt's or payment's lines settle real posted bills (settlement.test.ts).
  if (r.document?.settle?.target) return true;
  // A stock count's lines need goods with a book cost in its warehouse, in their base unit (stocktake.test.ts).
  if (r.document?.count) return true;
  if (linesOfHandlerSaved().has(r.resource)) return true;
  // Lines edited one at a time through their bill (document.lineSubmit: costbody) need a draft bill (cost-adjustment.test.ts).
  if (r.api.endpoints.some((e) => e.handler === 'document.lineSubmit')) return true;
  // Bill attachments are made by uploading a file to a bill (billannex putOrderFile; finance-views.test.ts, with its tenant checks).
  if (r.api.endpoints.some((e) => e.handler === 'billAnnex.put')) return true;
  // Workflow rows are BPMN models checked on save and rows the engine writes (workflow.test.ts, with its tenant checks).
  if (r.module === 'workflow') return true;
  // Rule lines judged by a named server check (营销活动's kinds, 退货申请's order lines): marketing.test.ts, mall-orders.test.ts.
  if (r.document?.lineCheck) return true;
  // Settings rows made when a tenant is set up and edited, never added (公司信息, 支付配置: settings-screens.test.ts, with its tenant checks).
  if ((r as { editOnly?: string }).editOnly) return true;
  return Boolean(r.document && !r.document.transitions?.some((t) => t.save && !t.effect));
}

let handlerSavedLines: Set<string> | undefined;
/** Line resources whose parent has no generic or document save (its save is a custom handler). */
function linesOfHandlerSaved(): Set<string> {
  handlerSavedLines ??= new Set(
    loadResources()
      .filter((p) => !p.api.endpoints.some((e) => e.op === 'submit' || e.op === 'save' || e.op === 'document'))
      .flatMap((p) => Object.values(p.entity.properties).map((f) => (f as { 'x-lines'?: string })['x-lines']).filter((x): x is string => Boolean(x))),
  );
  return handlerSavedLines;
}

/** Every resource file: schemas/<module>/<name>.json with its shared fragments merged, as the server reads it. */
export function loadResources(): Resource[] {
  const out: Resource[] = [];
  const fragments = readFragments(SCHEMAS);
  for (const module of fs.readdirSync(SCHEMAS, { withFileTypes: true })) {
    if (!module.isDirectory() || NOT_RESOURCES.has(module.name)) continue;
    for (const file of fs.readdirSync(path.join(SCHEMAS, module.name)).filter((f) => f.endsWith('.json')).sort()) {
      const full = path.join(SCHEMAS, module.name, file);
      const resource = resolveResource(JSON.parse(fs.readFileSync(full, 'utf8')) as ResourceFile, fragments);
      out.push({ ...(resource as unknown as Omit<Resource, 'file'>), file: `${module.name}/${file}` });
    }
  }
  return out;
}

export function endpoint(r: Resource, name: string): Endpoint | undefined {
  return r.api.endpoints.find((e) => e.path === name);
}

/** The path of one of a resource's endpoints, without /api. */
export function pathOf(r: Resource, name: string): string {
  const e = endpoint(r, name);
  if (!e) throw new Error(`${r.resource} has no ${name} endpoint`);
  return e.path.startsWith('/') ? e.path : `${r.api.base}/${e.path}`;
}

export const hasAll = (r: Resource, ...names: string[]) => names.every((n) => endpoint(r, n));
export const isPlatform = (r: Resource) => r.table.scope === 'platform';

/** Fields a caller may send: stored, not computed, not server-owned. */
export function writableFields(r: Resource): [string, Field][] {
  return Object.entries(r.entity.properties).filter(([name, f]) => name !== 'id' && !f['x-virtual'] && !f['x-readonly']);
}

export function typeOf(f: Field): string | undefined {
  return Array.isArray(f.type) ? f.type.find((t) => t !== 'null') : f.type;
}

/** The message the schema gives for a keyword on a field, else the server's generic wording. */
export function messageFor(r: Resource, field: string, keyword: 'required' | 'type' | 'maxLength' | 'format' | 'pattern'): string {
  const f = r.entity.properties[field];
  if (keyword === 'required') return r.entity.errorMessage?.required?.[field] ?? `请输入${f.title}`;
  const own = f.errorMessage?.[keyword];
  if (own) return own;
  switch (keyword) {
    case 'type':
      if (typeOf(f) === 'integer') return `${f.title}必须是整数`;
      if (typeOf(f) === 'number') return `${f.title}必须是数字`;
      return `${f.title}类型不正确`;
    case 'maxLength':
      return `${f.title}长度不能超过${f.maxLength}个字符`;
    default:
      return `${f.title}格式不正确`;
  }
}

let counter = 0;
/** A short, lowercase, alphanumeric token unique in this process. */
export function uniqueToken(): string {
  counter += 1;
  return `${Date.now().toString(36).slice(-6)}${process.pid.toString(36)}${counter.toString(36)}`;
}

/**
 * Values that satisfy the patterns the schemas use; the first one matching a field's pattern is
 * taken. A new pattern that none of these matches fails loudly, so this list grows with the schemas.
 */
function patternCandidates(token: string): string[] {
  const digits = String(parseInt(token.slice(-8), 36)).padStart(10, '0').slice(-10);
  return [
    `t${token}`,
    `/test/${token}`,
    `http://127.0.0.1:9/${token}`,
    '2025-01-02 03:04:05',
    '2025-01-02',
    `139${digits.slice(-8)}`,
    digits,
    // Eight digits: a bank account of a type other than 对公 (the form's bankAccount check).
    digits.slice(-8),
    '12',
    '1',
    'yyyyMMdd',
  ];
}

/** A non-empty value within maxLength that the pattern refuses. */
export function badValueFor(pattern: string, maxLength = 255): string {
  const re = new RegExp(pattern);
  const bad = ['#bad value#', '-1', 'abc', '0', '1.2345678901', 'x'].map((c) => c.slice(0, maxLength)).find((c) => !re.test(c));
  if (!bad) throw new Error(`no refused value for pattern ${pattern}`);
  return bad;
}

/** Reads dictionaries and referenced rows once per tenant, to fill x-dict and x-ref fields. */
export class BodyFactory {
  private dicts = new Map<string, string[]>();
  private refs = new Map<string, string>();
  private all = loadResources();

  constructor(private api: Api) {}

  async dictKeys(code: string, biz = false): Promise<string[]> {
    const key = `${biz ? 'biz' : 'sys'}:${code}`;
    let keys = this.dicts.get(key);
    if (!keys) {
      const items = expectOk<{ dictKey: string }[]>(
        await this.api.get(`/blade-system/${biz ? 'dict-biz' : 'dict'}/dictionary`, { code }),
        `dictionary ${code}`,
      );
      keys = items.map((i) => String(i.dictKey));
      this.dicts.set(key, keys);
    }
    if (!keys.length) throw new Error(`dictionary ${code} has no items: a schema names it in x-dict`);
    return keys;
  }

  /**
   * The id of some live row of a referenced resource, read through its own list call; when the
   * tenant has none yet, one is created through the resource's own submit.
   */
  async refId(resource: string, seen: string[] = []): Promise<string> {
    let id = this.refs.get(resource);
    if (!id) {
      const target = this.all.find((r) => r.resource === resource);
      if (!target) throw new Error(`x-ref names unknown resource ${resource}`);
      const data = expectOk<{ records?: { id: string }[] } | { id: string }[]>(await this.api.get(pathOf(target, 'list')), `${resource} list`);
      const rows = Array.isArray(data) ? data : (data.records ?? []);
      if (rows.length) id = String(rows[0].id);
      else if (endpoint(target, 'submit') && !seen.includes(resource)) {
        const created = expectOk<{ id: string }>(await this.api.post(pathOf(target, 'submit'), await this.validBody(target, [...seen, resource])), `${resource} submit`);
        id = String(created.id);
      } else throw new Error(`no ${resource} row to reference`);
      this.refs.set(resource, id);
    }
    return id;
  }

  /** The id of a new row of a referenced resource, made through its own submit. */
  async newRefId(resource: string, seen: string[] = []): Promise<string> {
    const target = this.all.find((r) => r.resource === resource);
    if (!target) throw new Error(`x-ref names unknown resource ${resource}`);
    if (!endpoint(target, 'submit') || seen.includes(resource)) throw new Error(`no new ${resource} row to reference`);
    const created = expectOk<{ id: string }>(await this.api.post(pathOf(target, 'submit'), await this.validBody(target, [...seen, resource])), `${resource} submit`);
    return String(created.id);
  }

  /** A key of the field's dictionary that no live row of the resource holds (keys are handed out once per factory). */
  private usedKeys = new Set<string>();
  async unusedKey(r: Resource, name: string, f: Field): Promise<string> {
    const keys = await this.dictKeys((f['x-dict'] ?? f['x-dictBiz'])!, Boolean(f['x-dictBiz']));
    const data = expectOk<{ records?: Record<string, unknown>[] } | Record<string, unknown>[]>(await this.api.get(pathOf(r, 'list'), { current: 1, size: 2000 }), `${r.resource} list`);
    const held = new Set((Array.isArray(data) ? data : (data.records ?? [])).map((row) => String(row[name])));
    const key = keys.find((k) => !held.has(k) && !this.usedKeys.has(`${r.resource}.${name}=${k}`)) ?? (await this.newKey(f));
    this.usedKeys.add(`${r.resource}.${name}=${key}`);
    return key;
  }

  /** Every key taken (a rule for every bill type is seeded): the administrator adds one to the dictionary first, as 字典管理 does. */
  private async newKey(f: Field): Promise<string> {
    const code = (f['x-dict'] ?? f['x-dictBiz'])!;
    const base = f['x-dictBiz'] ? '/blade-system/dict-biz' : '/blade-system/dict';
    const roots = rowsOf(expectOk(await this.api.get(`${base}/list`, { code_equal: code, parentId_equal: '0' }), `${code} dictionary`));
    const root = roots.find((row) => row.code === code);
    if (!root) throw new Error(`dictionary ${code} has no root row`);
    const key = `t${uniqueToken().slice(-8)}`.slice(0, f.maxLength ?? 255);
    expectOk(await this.api.post(`${base}/submit`, { parentId: root.id, code, dictKey: key, dictValue: `测试${key}`, sort: 99 }), `${code} new key`);
    this.dicts.delete(`${f['x-dictBiz'] ? 'biz' : 'sys'}:${code}`);
    return key;
  }

  /** A plausible value for one field, honouring type, pattern, format, maxLength, enum/oneOf, x-dict and x-ref. */
  async value(r: Resource, name: string, f: Field, token: string, seen: string[] = []): Promise<unknown> {
    const type = typeOf(f);
    const unique = (r.table.unique ?? []).some((u) => u.fields.includes(name));
    if (f.oneOf?.length) return f.oneOf[0].const;
    if (f.enum?.length) return f.enum[0];
    // A reference to the resource itself is a tree parent: the root.
    if (f['x-ref'] === r.resource) return r.table.tree?.rootValue ?? '0';
    // A unique link (one user per staff member) needs a row of its own each time.
    if (f['x-ref'] && unique) return this.newRefId(f['x-ref'], seen);
    // A reference that must differ from another field's (a transfer's receiving warehouse) gets a row of its own.
    if (f['x-ref'] && f['x-differentFrom']) return this.newRefId(f['x-ref'], seen);
    if (f['x-ref']) return this.refId(f['x-ref'], seen);
    if (type === 'array') {
      const items = (f.items ?? { type: 'string', title: name }) as Field;
      const n = Math.max(1, f.minItems ?? 1);
      return Promise.all(Array.from({ length: n }, (_, i) => this.value(r, name, items, `${token}${i}`, seen)));
    }
    if (type === 'object') return {};
    if (type === 'integer' || type === 'number') {
      if (f['x-dict'] || f['x-dictBiz']) {
        const keys = await this.dictKeys((f['x-dict'] ?? f['x-dictBiz'])!, Boolean(f['x-dictBiz']));
        const fit = keys.map(Number).find((k) => Number.isInteger(k) && (f.minimum === undefined || k >= f.minimum) && (f.maximum === undefined || k <= f.maximum));
        if (fit === undefined) throw new Error(`${r.resource}.${name}: no integer key in dictionary`);
        return fit;
      }
      if (f.default !== undefined) return f.default;
      let n = 1;
      if (f.minimum !== undefined) n = Math.max(n, f.minimum);
      if (f.maximum !== undefined) n = Math.min(n, f.maximum);
      return n;
    }
    if (type === 'boolean') return true;
    // Strings. A unique field gets a fresh value even when it names a dictionary, or it would collide with seeds.
    const max = f.maxLength ?? 255;
    if (f.format === 'email') return `t${token}@example.com`.slice(-max);
    if (f.pattern) {
      if (f.default !== undefined && new RegExp(f.pattern).test(String(f.default)) && !unique) return f.default;
      const re = new RegExp(f.pattern);
      const hit = patternCandidates(token).map((c) => c.slice(0, max)).find((c) => re.test(c)) ?? sampleFor(f.pattern, max);
      if (!hit) throw new Error(`${r.resource}.${name}: no test value for pattern ${f.pattern}`);
      return hit;
    }
    // A unique dictionary field (one 单据编号规则 per bill type) takes a key no row holds yet.
    if (unique && (f['x-dict'] || f['x-dictBiz']) && !f['x-dictOpen']) return this.unusedKey(r, name, f);
    if (unique) return `t${token}`.slice(-max);
    if ((f['x-dict'] || f['x-dictBiz']) && !unique) {
      return (await this.dictKeys((f['x-dict'] ?? f['x-dictBiz'])!, Boolean(f['x-dictBiz'])))[0];
    }
    if (f.default !== undefined) return f.default;
    if (f['x-secret']) return `S3cret-${token}`.slice(0, max);
    return `测试${token}`.slice(0, max);
  }

  /**
   * A body that the submit call accepts: every required field, every field whose x-requiredIf
   * holds, and every field of a unique rule (fresh values, so repeated bodies never collide).
   */
  async validBody(r: Resource, seen: string[] = []): Promise<Record<string, unknown>> {
    const token = uniqueToken();
    const body: Record<string, unknown> = {};
    const required = new Set(r.entity.required ?? []);
    for (const u of r.table.unique ?? []) for (const f of u.fields) required.add(f);
    const props = r.entity.properties;
    for (const name of required) {
      if (!props[name] || props[name]['x-readonly']) continue;
      body[name] = await this.value(r, name, props[name], token, seen);
    }
    for (const [name, f] of Object.entries(props)) {
      if (f['x-requiredIf'] !== undefined && body[name] === undefined && evaluate(f['x-requiredIf'], withDefaults(r, body))) {
        body[name] = await this.value(r, name, f, token, seen);
      }
    }
    // Values a cross-field rule needs chosen (end after start, 面额 below 满额) come from the schema's example.
    Object.assign(body, (r as { example?: Record<string, unknown> }).example ?? {});
    if (r.document?.lines) body[r.document.lines] = [await this.billLine(r, props[r.document.lines] as Field & { 'x-lines'?: string }, seen)];
    return body;
  }

  /** One valid line of a bill: the line resource's required fields, with a quantity of the bill's sign and a price. */
  async billLine(r: Resource, field: Field & { 'x-lines'?: string }, seen: string[]): Promise<Record<string, unknown>> {
    const lineResource = this.all.find((x) => x.resource === field['x-lines']);
    if (!lineResource) throw new Error(`${r.resource}: x-lines names unknown resource`);
    const line = await this.validBody(lineResource, seen);
    // An item bill (收支单) has items and amounts, no quantities: the line's own required fields are all.
    if (r.document!.items) return line;
    const amounts = r.document!.amounts;
    line.qty = (amounts?.sign ?? 1) < 0 ? '-1' : '1';
    // A bill without amounts (material requisition) has goods and quantities only.
    if (!amounts) return line;
    line.taxRate = '13';
    if (amounts?.basis === 'exclusive') line[amounts.price] = '1.00';
    else line.taxPrice = '1.13';
    return line;
  }
}

/** The body as the server sees it after filling schema defaults (for x-requiredIf). */
export function withDefaults(r: Resource, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const [name, f] of Object.entries(r.entity.properties)) if (out[name] === undefined && f.default !== undefined) out[name] = f.default;
  return out;
}

/** Fields whose x-requiredIf rule holds for this body: missing them must be refused as well. */
export function conditionallyRequired(r: Resource, body: Record<string, unknown>): string[] {
  return Object.entries(r.entity.properties)
    .filter(([, f]) => f['x-requiredIf'] !== undefined)
    .filter(([name, f]) => {
      const without = withDefaults(r, body);
      delete without[name];
      return Boolean(evaluate(f['x-requiredIf']!, without));
    })
    .map(([name]) => name);
}

/** Rows of a list answer, paged (`records`) or a tree/array (nested rows flattened). */
export function rowsOf(data: unknown): Record<string, unknown>[] {
  const list = Array.isArray(data) ? data : ((data as { records?: unknown[] })?.records ?? []);
  const out: Record<string, unknown>[] = [];
  const walk = (rows: unknown[]) => {
    for (const row of rows as Record<string, unknown>[]) {
      out.push(row);
      if (Array.isArray(row.children)) walk(row.children);
    }
  };
  walk(list);
  return out;
}

/**
 * The same row with one visible change (the first plain text field, else the first plain integer),
 * so an update shows — or one that should have been refused and slipped through would show.
 */
export function changed(r: Resource, row: Record<string, unknown>): Record<string, unknown> {
  const plain = writableFields(r).find(
    ([name, f]) => typeOf(f) === 'string' && !f.pattern && !f.format && !f.oneOf && !f.enum && !f['x-ref'] && !f['x-dict'] && !f['x-dictBiz'] && !f['x-secret'] && name in row,
  );
  if (plain) return { ...row, [plain[0]]: `B改${String(row[plain[0]] ?? '')}`.slice(0, plain[1].maxLength ?? 255) };
  const int = writableFields(r).find(([name, f]) => typeOf(f) === 'integer' && !f.enum && !f['x-dict'] && !f['x-dictBiz'] && name in row);
  if (int) return { ...row, [int[0]]: Number(row[int[0]] ?? 0) + 7 };
  return { ...row };
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** A sent value and the stored one agree (decimals by number, arrays also comma-joined, blank = null). */
export function same(f: Field | undefined, sent: unknown, got: unknown): boolean {
  if (blank(sent) || blank(got)) return blank(sent) && blank(got);
  if (Array.isArray(sent)) {
    if (!Array.isArray(got)) return sent.map(String).join(',') === String(got);
    return sent.length === got.length && sent.every((s, i) => same(undefined, s, got[i]));
  }
  if (typeof sent === 'object') {
    // Line figures come back at their places (1 → 1.00): numbers compare as numbers.
    const decimal = (v: unknown) => typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v);
    return (
      typeof got === 'object' &&
      Object.entries(sent as Record<string, unknown>).every(([k, v]) => {
        const other = (got as Record<string, unknown>)[k];
        return decimal(v) && decimal(other) ? new Dec(String(v)).eq(String(other)) : same(undefined, v, other);
      })
    );
  }
  if (typeof sent === 'number' || typeof got === 'number' || f?.['x-decimal'] !== undefined) return Number(sent) === Number(got);
  return String(sent) === String(got);
}
