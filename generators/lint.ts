/**
 * `npm run lint:schemas`: every resource file against the meta-schema, then the cross-references
 * that JSON Schema cannot express. Problems print as `file:line: message`; exit 1 when any.
 * Usage: tsx generators/lint.ts [schemasDir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { jsonLines, lineOf } from './jsonpos.ts';
import { checkExpression, type Expr } from '../src/shared/expr.ts';
import type { DictSeed, MenuSeed, ResourceFile } from '../src/shared/resource.ts';
import { resolveResource, type Fragment } from '../src/shared/fragments.ts';
import { readFragments } from '../src/shared/fragments-fs.ts';
import { chartProblems, type Chart } from '../src/shared/accounts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemasDir = path.resolve(process.argv[2] ?? path.join(root, 'schemas'));

interface Problem {
  file: string;
  line: number;
  message: string;
}
const problems: Problem[] = [];
const warnings: Problem[] = [];

interface Loaded<T> {
  file: string;
  data: T;
  lines: Map<string, number>;
}

function load<T>(file: string): Loaded<T> | undefined {
  const text = fs.readFileSync(file, 'utf8');
  try {
    return { file, data: JSON.parse(text) as T, lines: jsonLines(text) };
  } catch (error) {
    const m = /position (\d+)/.exec(String(error));
    const line = m ? text.slice(0, Number(m[1])).split('\n').length : 1;
    problems.push({ file, line, message: `JSON 语法错误: ${(error as Error).message}` });
    return undefined;
  }
}

const report = (l: Loaded<unknown>, pointer: string, message: string, warn = false) =>
  (warn ? warnings : problems).push({ file: l.file, line: lineOf(l.lines, pointer), message });

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : e.name.endsWith('.json') ? [full] : [];
  });
}

/** Columns every stored row has (src/server/engine/model.ts BASE_FIELDS). */
const BASE_COLUMNS = new Set(['id', 'tenantId', 'createUser', 'createDept', 'createTime', 'updateUser', 'updateTime', 'status', 'isDeleted', 'version']);

const meta = JSON.parse(fs.readFileSync(path.join(schemasDir, 'meta/resource.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
const validateMeta = ajv.compile(meta);

// Dictionaries
const chart = JSON.parse(fs.readFileSync(path.join(schemasDir, 'accounts.json'), 'utf8')) as Chart;
const chartCodes = new Set(chart.accounts.map((a) => a.code));
const dictCodes = new Map<string, { biz: boolean }>();
for (const file of walk(path.join(schemasDir, 'dicts'))) {
  const l = load<{ dicts: DictSeed[] }>(file);
  if (!l) continue;
  l.data.dicts.forEach((d, i) => {
    if (dictCodes.has(d.code)) report(l, `/dicts/${i}/code`, `字典编码 ${d.code} 重复`);
    dictCodes.set(d.code, { biz: Boolean(d.biz) });
    const keys = new Set<string>();
    d.items.forEach((item, j) => {
      if (keys.has(item.key)) report(l, `/dicts/${i}/items/${j}/key`, `字典 ${d.code} 的键值 ${item.key} 重复`);
      keys.add(item.key);
    });
  });
}

// Fragments: shared field sets merged into entities (src/shared/fragments.ts)
let fragments = new Map<string, Fragment>();
try {
  fragments = readFragments(schemasDir);
} catch (error) {
  problems.push({ file: path.join(schemasDir, 'fragments'), line: 1, message: (error as Error).message });
}

// Resources
/** Menus opened by a drill-down or a dashboard card, checked against menus.json below. */
const drillTargets: { file: Loaded<unknown>; pointer: string; menu: string }[] = [];
/** Menu path → the name of the resource its page shows (list.views must name such a path). */
const menuResources = new Map<string, string>();
{
  const collect = (items: MenuSeed[]) => {
    for (const m of items) {
      if (m.resource) menuResources.set(m.path, m.resource.split('/').pop()!);
      if (m.children) collect(m.children);
    }
  };
  try {
    collect((JSON.parse(fs.readFileSync(path.join(schemasDir, 'menus.json'), 'utf8')) as { menus: MenuSeed[] }).menus);
  } catch {
    // menus.json's own problems are reported where it is checked below.
  }
}

const resources = new Map<string, Loaded<ResourceFile>>();
const resourceFiles = walk(schemasDir).filter((f) => {
  const rel = path.relative(schemasDir, f).split(path.sep);
  return rel.length === 2 && !['meta', 'dicts', 'fragments'].includes(rel[0]);
});
for (const file of resourceFiles) {
  const l = load<ResourceFile>(file);
  if (!l) continue;
  if (!validateMeta(l.data)) {
    for (const e of validateMeta.errors ?? []) report(l, e.instancePath, `元模式校验失败 ${e.instancePath || '/'}: ${e.message}`);
    continue;
  }
  try {
    l.data = resolveResource(l.data, fragments);
  } catch (error) {
    report(l, '/entity/x-fragments', (error as Error).message);
    continue;
  }
  if (resources.has(l.data.resource)) report(l, '/resource', `资源名 ${l.data.resource} 与 ${resources.get(l.data.resource)!.file} 重复`);
  if (path.basename(file, '.json') !== l.data.resource) report(l, '/resource', `文件名应为 ${l.data.resource}.json`);
  resources.set(l.data.resource, l);
}

// Handlers the server implements (custom endpoints must name one).
const handlerNames = new Set<string>();
const lineCheckNames = new Set<string>();
function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}
for (const file of tsFiles(path.join(root, 'src/server'))) {
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(/register\('([\w.]+)'/g)) handlerNames.add(m[1]);
  for (const m of text.matchAll(/registerLineCheck\('([\w.]+)'/g)) lineCheckNames.add(m[1]);
}

const specText = fs
  .readdirSync(path.join(root, '../shared/spec'))
  .map((f) => fs.readFileSync(path.join(root, '../shared/spec', f), 'utf8'))
  .join('\n')
  .toLowerCase();

/** Every GET call a resource serves, by absolute path (a prompt's prefill reads one). */
const servedGets = new Set<string>();
for (const l of resources.values()) {
  for (const e of l.data.api.endpoints) if (e.method === 'GET') servedGets.add(e.path.startsWith('/') ? e.path : `${l.data.api.base}/${e.path}`);
}

const endpoints = new Map<string, string>();
const permissions = new Map<string, string>();
for (const [name, l] of resources) {
  const r = l.data;
  const props = r.entity.properties;
  (r.entity.required ?? []).forEach((f, i) => {
    if (!(f in props)) report(l, `/entity/required/${i}`, `必填字段 ${f} 不在 properties 中`);
  });
  for (const [field, schema] of Object.entries(props)) {
    const at = `/entity/properties/${field}`;
    if (schema['x-dict'] && !dictCodes.has(schema['x-dict'])) report(l, `${at}/x-dict`, `字典 ${schema['x-dict']} 未在 schemas/dicts 中定义`);
    if (schema['x-dictBiz'] && !dictCodes.has(schema['x-dictBiz'])) report(l, `${at}/x-dictBiz`, `业务字典 ${schema['x-dictBiz']} 未在 schemas/dicts 中定义`);
    if (schema['x-ref'] && !resources.has(schema['x-ref'])) report(l, `${at}/x-ref`, `引用的资源 ${schema['x-ref']} 不存在`);
    if (schema['x-lines']) {
      const target = resources.get(schema['x-lines']);
      if (!target) report(l, `${at}/x-lines`, `明细资源 ${schema['x-lines']} 不存在`);
      else if (!(String(schema['x-parentField'] ?? 'parentId') in target.data.entity.properties)) {
        report(l, `${at}/x-parentField`, `明细资源 ${schema['x-lines']} 没有字段 ${schema['x-parentField'] ?? 'parentId'}`);
      }
    }
    if (schema['x-requiredIf'] !== undefined) {
      for (const p of checkExpression(schema['x-requiredIf'] as Expr)) report(l, `${at}/x-requiredIf`, `表达式错误: ${p}`);
    }
  }
  (r.lookups ?? []).forEach((lk, i) => {
    if (lk.dictValue) {
      const from = props[lk.from];
      if (!from?.['x-dict'] && !from?.['x-dictBiz']) report(l, `/lookups/${i}/from`, `字段 ${lk.from} 没有字典，不能取字典值`);
      return undefined;
    }
    const target = resources.get(lk.resource ?? '');
    if (!target) return report(l, `/lookups/${i}/resource`, `查找的资源 ${lk.resource} 不存在`);
    if (!(String(lk.take) in target.data.entity.properties)) report(l, `/lookups/${i}/take`, `资源 ${lk.resource} 没有字段 ${lk.take}`);
    // Base columns (createUser…) are on every row, so a lookup may read from them too.
    if (!(lk.from in props) && !BASE_COLUMNS.has(lk.from)) report(l, `/lookups/${i}/from`, `字段 ${lk.from} 不存在`);
  });
  // Bills of several kinds and item lines (收支单): the fields they name exist where they must.
  const docBlock = r.document;
  if (docBlock?.variants && !(docBlock.variants.field in props)) report(l, '/document/variants/field', `单据类型字段 ${docBlock.variants.field} 不在 properties 中`);
  if (docBlock?.posting?.partyIf !== undefined) {
    for (const p of checkExpression(docBlock.posting.partyIf as Expr)) report(l, '/document/posting/partyIf', `表达式错误: ${p}`);
  }
  // 从源单生成 on the bill page: by number through documentGenerate, by a chosen bill through documentPull.
  if (docBlock?.source) {
    const op = docBlock.source.numberParam ? 'documentGenerate' : 'documentPull';
    if (!r.api.endpoints.some((e) => e.op === op)) report(l, '/document/source', `有源单的单据须声明 op ${op} 接口（单据页面的“从源单生成”调用它）`);
  }
  if (r.list?.strongIf !== undefined) for (const p of checkExpression(r.list.strongIf as Expr)) report(l, '/list/strongIf', `表达式错误: ${p}`);
  // The general-ledger voucher: known accounts, head fields that exist, exactly one balancing line;
  // a bill that writes stock or party rows must say how they reach the ledger.
  const posting = docBlock?.posting;
  if (posting && (posting.stock || posting.party || posting.partyBy) && !posting.voucher) {
    report(l, '/document/posting', '记账的单据须声明 posting.voucher（总账凭证规则，科目见 schemas/accounts.json）');
  }
  if (posting?.voucher) {
    const rests = posting.voucher.filter((v) => v.amount.replace(/^-/, '') === 'rest');
    if (rests.length !== 1 || rests[0].when !== undefined) report(l, '/document/posting/voucher', '凭证规则须有且只有一行 rest（无条件），由它使凭证借贷平衡');
    posting.voucher.forEach((v, i) => {
      if (v.account !== 'party' && !chartCodes.has(v.account)) report(l, `/document/posting/voucher/${i}/account`, `科目 ${v.account} 不在 schemas/accounts.json 中`);
      const source = v.amount.replace(/^-/, '');
      if (!['stock', 'party', 'rest'].includes(source) && !(source in props)) report(l, `/document/posting/voucher/${i}/amount`, `单据头没有字段 ${source}`);
      if (v.account === 'party' && !posting.party && !posting.partyBy) report(l, `/document/posting/voucher/${i}/account`, '单据不记往来，不能使用 party 科目');
      if (v.when !== undefined) for (const p of checkExpression(v.when as Expr)) report(l, `/document/posting/voucher/${i}/when`, `表达式错误: ${p}`);
    });
  }
  // Kinds sharing source lines take from the same source and name each other; an origin names a bill head field.
  const source = docBlock?.source;
  (source?.sharedWith ?? []).forEach((other, i) => {
    const o = resources.get(other)?.data.document?.source;
    if (!o) report(l, `/document/source/sharedWith/${i}`, `资源 ${other} 不存在或不能从其他单据生成`);
    else if (o.resource !== source!.resource || !(o.sharedWith ?? []).includes(name)) report(l, `/document/source/sharedWith/${i}`, `${other} 须同样从 ${source!.resource} 生成，并在 sharedWith 中列出 ${name}`);
  });
  if (source?.origin) {
    const o = resources.get(source.origin.resource)?.data;
    if (!o?.document) report(l, '/document/source/origin/resource', `单据资源 ${source.origin.resource} 不存在`);
    else if (!(source.origin.field in o.entity.properties)) report(l, '/document/source/origin/field', `资源 ${source.origin.resource} 没有字段 ${source.origin.field}`);
  }
  if (docBlock?.items) {
    const linesRes = docBlock.lines ? resources.get(String(props[docBlock.lines]?.['x-lines'] ?? '')) : undefined;
    const lineProps = linesRes?.data.entity.properties ?? {};
    for (const key of ['item', 'amount'] as const) {
      if (!(docBlock.items[key] in lineProps)) report(l, `/document/items/${key}`, `明细字段 ${docBlock.items[key]} 不在明细资源中`);
    }
    const itemProp = lineProps[docBlock.items.item];
    const itemRes = resources.get(String(itemProp?.['x-ref'] ?? ''));
    // The item is a resource the clerk picks (x-ref), or a text key the clerk types (a waybill number).
    const textItem = itemProp && !itemProp['x-ref'] && itemProp.type === 'string';
    if (!itemRes && !textItem) report(l, '/document/items/item', `明细字段 ${docBlock.items.item} 应引用 (x-ref) 一个资源，或是一个文本字段`);
    if (textItem && docBlock.items.match) report(l, '/document/items/match', `文本明细字段 ${docBlock.items.item} 没有资源可以比对，不能使用 match`);
    for (const [itemField, headField] of Object.entries(docBlock.items.match ?? {})) {
      if (itemRes && !(itemField in itemRes.data.entity.properties)) report(l, `/document/items/match/${itemField}`, `资源 ${itemRes.data.resource} 没有字段 ${itemField}`);
      if (!(headField in props)) report(l, `/document/items/match/${itemField}`, `字段 ${headField} 不在 properties 中`);
    }
  }
  for (const key of ['parentField', 'titleField', 'sortField', 'keyField'] as const) {
    const f = r.table.tree?.[key];
    if (f && !(f in props) && !['id', 'status'].includes(f)) report(l, `/table/tree/${key}`, `树字段 ${f} 不在 properties 中`);
  }
  // A view is a SELECT, not a table: it has no trigram index to search (the server would query a missing one).
  if (r.table.view && r.table.search?.length) report(l, '/table/search', '只读视图不能声明 table.search（视图没有全文索引），请去掉，列表按字段 like 搜索即可');
  if (r.table.view && r.table.unique?.length) report(l, '/table/unique', '只读视图不能声明唯一约束');
  for (const [i, u] of (r.table.unique ?? []).entries()) {
    u.fields.forEach((f, j) => {
      if (!(f in props)) report(l, `/table/unique/${i}/fields/${j}`, `唯一约束字段 ${f} 不存在`);
    });
  }
  // View blocks: every field they name exists, pickers and endpoints they use exist.
  const BASE_FIELDS = new Set(['id', 'tenantId', 'createUser', 'createDept', 'createTime', 'updateUser', 'updateTime', 'status', 'isDeleted', 'version']);
  const known = (f: string) => f.split('.')[0] in props || BASE_FIELDS.has(f.split('.')[0]);
  const fieldOf = (item: unknown) => (typeof item === 'string' ? item : (item as { field?: string })?.field);
  const endpointPaths = new Set(r.api.endpoints.map((e) => e.path));
  const checkFieldList = (items: unknown[] | undefined, pointer: string, what: string) =>
    (items ?? []).forEach((item, i) => {
      const f = fieldOf(item);
      // A field from another call's rows is allowed when the block gives its title.
      const titled = typeof item === 'object' && item !== null && 'title' in item;
      if (f && !known(f) && !titled) report(l, `${pointer}/${i}`, `${what}字段 ${f} 不在 entity.properties 中（或为该列给出 title）`);
      const placeholder = (item as { placeholder?: string; placeholderEn?: string } | null) ?? {};
      if (typeof placeholder === 'object' && placeholder.placeholder && !placeholder.placeholderEn) {
        report(l, `${pointer}/${i}/placeholder`, `字段 ${f} 的 placeholder 没有英文 placeholderEn`);
      }
      const pickerName = (item as { picker?: string })?.picker;
      if (f && pickerName) {
        // x-ref fields use the target's pickers; other fields (company lookup) this resource's own.
        const target = props[f]?.['x-ref'] ? resources.get(String(props[f]['x-ref'])) : l;
        if (!target) report(l, `${pointer}/${i}/picker`, `字段 ${f} 引用的资源不存在`);
        else if (!target.data.pickers?.[pickerName]) report(l, `${pointer}/${i}/picker`, `资源 ${target.data.resource} 没有名为 ${pickerName} 的选择器`);
      }
      const lines = (item as { lines?: { fields?: unknown[] } })?.lines;
      if (f && lines?.fields) {
        const lineRes = props[f]?.['x-lines'] ? resources.get(String(props[f]['x-lines'])) : undefined;
        if (lineRes) {
          lines.fields.forEach((lf, j) => {
            const name = fieldOf(lf);
            if (name && !(name in lineRes.data.entity.properties)) report(l, `${pointer}/${i}/lines/fields/${j}`, `明细字段 ${name} 不在 ${lineRes.data.resource} 中`);
          });
        }
      }
    });
  const list = r.list as { columns?: unknown[]; endpoint?: string } | undefined;
  checkFieldList(list?.columns, '/list/columns', '列表');
  if (list?.endpoint && !endpointPaths.has(list.endpoint)) report(l, '/list/endpoint', `列表接口 ${list.endpoint} 不在 api.endpoints 中`);
  // A menu's list page asks its rows from list.endpoint, else from a page/list endpoint: one must exist.
  if (r.list && !list?.endpoint && [...menuResources.values()].includes(name) && !r.api.endpoints.some((e) => e.op === 'page' || e.op === 'list')) {
    report(l, '/list', '菜单页面的列表没有取数接口：请写明 list.endpoint（或声明 op 为 page/list 的接口）');
  }
  const views = (r.list?.views ?? {}) as Record<string, { endpoint: string; columns?: unknown[] }>;
  for (const [menuPath, view] of Object.entries(views)) {
    const at = `/list/views/${menuPath.replaceAll('/', '~1')}`;
    if (menuResources.get(menuPath) !== name) report(l, at, `列表视图 ${menuPath} 不是指向本资源的菜单路径`);
    if (!endpointPaths.has(view.endpoint)) report(l, `${at}/endpoint`, `列表视图接口 ${view.endpoint} 不在 api.endpoints 中`);
    checkFieldList(view.columns, `${at}/columns`, '列表');
  }
  checkReportParts(r as unknown as Record<string, unknown>, l, endpointPaths);
  checkFieldList(r.search as unknown[] | undefined, '/search', '搜索');
  const form = r.form as { fields?: unknown[]; groups?: { fields: unknown[] }[]; tabs?: { fields?: unknown[]; groups?: { fields: unknown[] }[] }[] } | undefined;
  checkFieldList(form?.fields, '/form/fields', '表单');
  form?.groups?.forEach((g, i) => checkFieldList(g.fields, `/form/groups/${i}/fields`, '表单'));
  form?.tabs?.forEach((t, i) => {
    checkFieldList(t.fields, `/form/tabs/${i}/fields`, '表单');
    t.groups?.forEach((g, j) => checkFieldList(g.fields, `/form/tabs/${i}/groups/${j}/fields`, '表单'));
  });
  for (const [name, picker] of Object.entries((r.pickers ?? {}) as Record<string, { endpoint?: string; columns?: unknown[]; search?: unknown[] }>)) {
    if (picker.endpoint && !picker.endpoint.startsWith('/') && !endpointPaths.has(picker.endpoint)) {
      report(l, `/pickers/${name}/endpoint`, `选择器 ${name} 的接口 ${picker.endpoint} 不在 api.endpoints 中`);
    }
    checkFieldList(picker.columns, `/pickers/${name}/columns`, '选择器列');
  }
  type ActionRef = { endpoint: string; key: string; resource?: string; prompt?: unknown[] };
  const cardActions = ((r as { card?: { actions?: ActionRef[] } }).card?.actions ?? []) as ActionRef[];
  const viewActions = Object.entries((r.list?.views ?? {}) as Record<string, { actions?: ActionRef[] }>).map(
    ([menuPath, view]) => [`/list/views/${menuPath.replaceAll('/', '~1')}/actions`, view.actions ?? []] as const,
  );
  for (const [pointer, list] of [['/actions', (r.actions ?? []) as ActionRef[]] as const, ['/card/actions', cardActions] as const, ...viewActions]) {
    list.forEach((a, i) => {
      if (a.resource) {
        const target = resources.get(a.resource);
        if (!target) report(l, `${pointer}/${i}/resource`, `操作 ${a.key} 的资源 ${a.resource} 不存在`);
        else if (!target.data.api.endpoints.some((e) => e.path === a.endpoint)) report(l, `${pointer}/${i}/endpoint`, `操作 ${a.key} 的接口 ${a.endpoint} 不在资源 ${a.resource} 的 api.endpoints 中`);
      } else if (!a.endpoint.startsWith('/') && !endpointPaths.has(a.endpoint)) report(l, `${pointer}/${i}/endpoint`, `操作 ${a.key} 的接口 ${a.endpoint} 不在 api.endpoints 中`);
      const prefill = (a as { prefill?: { endpoint: string; fields: Record<string, string> } }).prefill;
      if (prefill) {
        if (!servedGets.has(prefill.endpoint)) report(l, `${pointer}/${i}/prefill/endpoint`, `操作 ${a.key} 的预填接口 ${prefill.endpoint} 不是任何资源的 GET 接口`);
        const promptFields = new Set((a.prompt ?? []).map(fieldOf));
        for (const field of Object.keys(prefill.fields)) {
          if (!promptFields.has(field)) report(l, `${pointer}/${i}/prefill/fields/${field}`, `操作 ${a.key} 的预填字段 ${field} 不在 prompt 中`);
        }
      }
      // Prompt fields take titles and rules from the resource the call belongs to.
      const owner = a.resource ? resources.get(a.resource) : l;
      (a.prompt ?? []).forEach((item, j) => {
        const f = fieldOf(item);
        const titled = typeof item === 'object' && item !== null && 'title' in item;
        if (f && owner && !titled && !(f in owner.data.entity.properties) && !BASE_FIELDS.has(f)) {
          report(l, `${pointer}/${i}/prompt/${j}`, `操作 ${a.key} 的提示字段 ${f} 不在资源 ${owner.data.resource} 中（或为它给出 title）`);
        }
      });
    });
  }
  // A field that holds another resource's id is picked with that resource's picker.
  for (const [field, schema] of Object.entries(props)) {
    const target = schema['x-ref'] ? resources.get(String(schema['x-ref'])) : undefined;
    if (target && r.form && !target.data.pickers && field !== 'parentId') {
      report(l, `/entity/properties/${field}/x-ref`, `引用的资源 ${target.data.resource} 没有 pickers，表单无法选择`, true);
    }
  }
  if (r.permission) {
    if (permissions.has(r.permission)) report(l, '/permission', `权限前缀 ${r.permission} 与资源 ${permissions.get(r.permission)} 重复`);
    permissions.set(r.permission, name);
  }
  const lineCheck = r.document?.lineCheck;
  if (lineCheck && !lineCheckNames.has(lineCheck)) report(l, '/document/lineCheck', `明细规则 ${lineCheck} 在 src/server 中不存在（registerLineCheck）`);
  r.api.endpoints.forEach((e, i) => {
    const full = e.path.startsWith('/') ? e.path : `${r.api.base}/${e.path}`;
    const key = `${e.method} ${full}`;
    if (endpoints.has(key)) report(l, `/api/endpoints/${i}`, `接口 ${key} 与资源 ${endpoints.get(key)} 重复`);
    endpoints.set(key, name);
    if (e.op === 'custom' && (!e.handler || !handlerNames.has(e.handler))) {
      report(l, `/api/endpoints/${i}/handler`, `自定义接口的处理器 ${e.handler ?? '(未指定)'} 在 src/server 中不存在`);
    }
    if (!e.addition) {
      // The catalogue names calls as "<entity>: op, op…" or full paths; both words must appear.
      const segments = full.split('/').filter(Boolean);
      const op = segments[segments.length - 1].toLowerCase();
      const entity = (segments.length > 2 ? segments[segments.length - 2] : segments[0]).toLowerCase();
      if (!specText.includes(op) || !specText.includes(entity.replace(/^blade-/, ''))) {
        report(l, `/api/endpoints/${i}/path`, `接口 ${key} 不在规格的接口目录中；若是新增接口请标记 "addition": true`);
      }
    }
  });
}

// Absolute endpoints a view block calls (pickers, actions, cards) must be some resource's call.
// Detail tabs may name a later module's call: a warning, the tab shows an empty table until then.
const servedPaths = new Set([...endpoints.keys()].map((key) => key.split(' ')[1]));
const pendingTabs = new Map<string, number>();
for (const l of resources.values()) {
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${pointer}/${i}`));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key}`;
      if (key === 'endpoint' && typeof value === 'string' && value.startsWith('/') && !servedPaths.has(value)) {
        if (pointer.startsWith('/detailTabs/')) pendingTabs.set(l.file, (pendingTabs.get(l.file) ?? 0) + 1);
        else report(l, at, `接口 ${value} 不是任何资源的接口`);
      } else if (key !== 'api' && key !== 'entity') visit(value, at);
    }
  };
  visit(l.data, '');
}
for (const [file, count] of pendingTabs) {
  warnings.push({ file, line: 1, message: `${count} 个详情页签的接口属于后续模块，暂显示空表` });
}

// The chart of accounts and the statement layouts.
for (const problem of chartProblems(chart)) problems.push({ file: path.join(schemasDir, 'accounts.json'), line: 1, message: `科目表: ${problem}` });

/** A report's chart, server totals, drill-downs and dashboard name fields and endpoints that exist. */
function checkReportParts(r: Record<string, unknown>, l: Loaded<unknown>, endpointPaths: Set<string>) {
  const props = (r.entity as { properties: Record<string, unknown> }).properties;
  type Chart = { category: string; values: string[]; endpoint?: string };
  const checkChart = (chart: Chart | undefined, pointer: string) => {
    if (!chart) return;
    for (const f of [chart.category, ...chart.values]) if (!(f in props)) report(l, pointer, `图表字段 ${f} 不在实体中`);
    if (chart.endpoint && !endpointPaths.has(chart.endpoint)) report(l, `${pointer}/endpoint`, `图表接口 ${chart.endpoint} 不在 api.endpoints 中`);
  };
  const list = r.list as { chart?: Chart; summaryEndpoint?: string; columns?: unknown[] } | undefined;
  checkChart(list?.chart, '/list/chart');
  if (list?.summaryEndpoint && !endpointPaths.has(list.summaryEndpoint)) report(l, '/list/summaryEndpoint', `合计接口 ${list.summaryEndpoint} 不在 api.endpoints 中`);
  list?.columns?.forEach((c, i) => {
    const drill = typeof c === 'object' && c ? (c as { drill?: { menu: string; params: Record<string, string>; label?: string } }).drill : undefined;
    if (!drill) return;
    drillTargets.push({ file: l, pointer: `/list/columns/${i}/drill/menu`, menu: drill.menu });
    for (const source of [...Object.values(drill.params), ...(drill.label ? [drill.label] : [])]) {
      if (!source.startsWith('$') && !(source in props)) report(l, `/list/columns/${i}/drill`, `钻取字段 ${source} 不在实体中`);
    }
  });
  const dashboard = r.dashboard as { stats?: { endpoint: string; items: { field: string; menu?: string }[] }; panels: { endpoint: string; menu?: string; chart?: Chart; columns?: unknown[] }[] } | undefined;
  if (!dashboard) return;
  if (dashboard.stats) {
    if (!endpointPaths.has(dashboard.stats.endpoint)) report(l, '/dashboard/stats/endpoint', `接口 ${dashboard.stats.endpoint} 不在 api.endpoints 中`);
    dashboard.stats.items.forEach((item, i) => {
      if (!(item.field in props)) report(l, `/dashboard/stats/items/${i}`, `字段 ${item.field} 不在实体中`);
      if (item.menu) drillTargets.push({ file: l, pointer: `/dashboard/stats/items/${i}/menu`, menu: item.menu });
    });
  }
  dashboard.panels.forEach((panel, i) => {
    if (!endpointPaths.has(panel.endpoint)) report(l, `/dashboard/panels/${i}/endpoint`, `接口 ${panel.endpoint} 不在 api.endpoints 中`);
    checkChart(panel.chart, `/dashboard/panels/${i}/chart`);
    for (const c of panel.columns ?? []) {
      const f = typeof c === 'string' ? c : (c as { field: string }).field;
      if (!(f in props)) report(l, `/dashboard/panels/${i}/columns`, `字段 ${f} 不在实体中`);
    }
    if (panel.menu) drillTargets.push({ file: l, pointer: `/dashboard/panels/${i}/menu`, menu: panel.menu });
  });
}

// Menus
const menus = load<{ menus: MenuSeed[] }>(path.join(schemasDir, 'menus.json'));
if (menus) {
  const codes = new Map<string, string>();
  // Drill-downs and dashboard cards open menus by code: each must exist (checked after the visit).
  const opened = drillTargets;
  const paths = new Set<string>();
  let withoutPage = 0;
  const visit = (items: MenuSeed[], pointer: string) =>
    items.forEach((m, i) => {
      const at = `${pointer}/${i}`;
      if (codes.has(m.code)) report(menus, `${at}/code`, `菜单编码 ${m.code} 重复`);
      codes.set(m.code, at);
      if (paths.has(m.path)) report(menus, `${at}/path`, `菜单路径 ${m.path} 重复`);
      paths.add(m.path);
      if (m.resource) {
        const name = m.resource.split('/').pop()!;
        if (!resources.has(name)) report(menus, `${at}/resource`, `菜单 ${m.code} 的页面资源 ${m.resource} 不存在`);
      } else if (!m.children?.length && !/^https?:/.test(m.path) && !m.path.includes('html')) withoutPage++;
      if (m.billType && !/^\d{4}$/.test(m.billType)) report(menus, `${at}/billType`, `单据类型 ${m.billType} 应为4位数字`);
      if (m.children) visit(m.children, `${at}/children`);
    });
  visit(menus.data.menus, '/menus');
  for (const target of opened) if (!codes.has(target.menu)) report(target.file, target.pointer, `菜单编码 ${target.menu} 不存在`);
  if (withoutPage) {
    warnings.push({ file: menus.file, line: 1, message: `${withoutPage} 个菜单叶子尚未对应 schema 页面（客户端显示“页面尚未构建”）` });
  }
}

for (const w of warnings) console.log(`${path.relative(root, w.file)}:${w.line}: 警告: ${w.message}`);
for (const p of problems) console.log(`${path.relative(root, p.file)}:${p.line}: ${p.message}`);
console.log(`schema lint: ${resources.size} resources, ${endpoints.size} endpoints, ${dictCodes.size} dictionaries, ${problems.length} problems`);
process.exit(problems.length ? 1 : 0);
