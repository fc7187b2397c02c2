/**
 * The call table: every endpoint the schemas declare, per module, with what it does — from the
 * endpoint's `description`, else from its op (a transition's title for document actions, the
 * fixed filters of a page, the fields a setter writes). Written to docs/calls.md (committed);
 * `--check` exits 1 when stale. Run by `npm run gen:types`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFragments } from '../src/shared/fragments-fs.ts';
import { resolveResource } from '../src/shared/fragments.ts';
import type { EndpointDef, ResourceFile } from '../src/shared/resource.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemasDir = path.join(root, 'schemas');
const outFile = path.join(root, 'docs/calls.md');
const check = process.argv.includes('--check');
const NOT_RESOURCES = new Set(['meta', 'dicts', 'fragments']);

const MODULES: Record<string, string> = {
  sales: 'Sales 销售',
  purchase: 'Purchase 采购',
  inventory: 'Inventory 仓储',
  finance: 'Finance 财务',
  marketing: 'Marketing 营销',
  mall: 'Mall 商城',
  analysis: 'Reports 统计分析',
  base: 'Master data 基础资料',
  desk: 'Desk 消息中心',
  workflow: 'Workflow 流程',
  hr: 'HR 人事',
  assets: 'Assets 固定资产',
  system: 'System 系统',
  resource: 'Resources 资源',
};

function list(values: unknown): string {
  return Array.isArray(values) ? values.join(', ') : String(values);
}

/** One sentence for an endpoint without its own description. */
export function describe(r: ResourceFile, e: EndpointDef): string {
  const what = r.titleEn ?? r.title;
  const params = (e.params ?? {}) as Record<string, unknown>;
  const fixed = Object.entries(params).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
  const where = fixed.length ? ` where ${fixed.map(([k, v]) => `${k} = ${v}`).join(', ')}` : '';
  switch (e.op) {
    case 'page':
      return `Paged list of ${what}${where}${e.filters ? ', with filters' : ''}.`;
    case 'list':
    case 'select':
      return `All ${what} (no paging)${where}.`;
    case 'detail':
      return `One ${what} by id${r.document?.lines ? ', with its lines' : ''}.`;
    case 'submit':
    case 'save':
      return `Adds (no id) or updates (id, version) a ${what}.`;
    case 'update':
      return `Updates a ${what} (id, version).`;
    case 'remove':
      return `Removes ${what} by ids (comma-separated).`;
    case 'enable':
    case 'disable':
      return `${e.op === 'enable' ? 'Enables' : 'Disables'} ${what} by ids.`;
    case 'tree':
    case 'lazyTree':
    case 'lazyList':
    case 'childList':
    case 'parentList':
      return `${what} as a tree (${e.op}).`;
    case 'code':
    case 'timeStampCode':
      return `The next code for a new ${what}.`;
    case 'setFields':
      return `Sets ${list(params.fields ?? [])} of ${what}${params.from ? ` in states ${JSON.stringify(params.from)}` : ''}; lines and totals untouched.`;
    case 'tagOn':
    case 'tagOff':
      return `${e.op === 'tagOn' ? 'Puts a tag on' : 'Takes a tag off'} ${what}.`;
    case 'import':
      return `Imports ${what} from an Excel file, with progress.`;
    case 'export':
      return `Exports ${what} to Excel.`;
    case 'document': {
      const action = String(params.action ?? '');
      const t = r.document?.transitions.find((x) => x.action === action);
      if (!t) return `Document action ${action}.`;
      const effect = t.effect === 'post' ? ': posts stock and party ledgers' : t.effect === 'reverse' ? ': reverses the postings' : '';
      return `${t.titleEn ?? t.title} (${action}): ${t.save ? 'saves head and lines, ' : ''}state ${t.from.join('/')} → ${t.to}${effect}.`;
    }
    case 'documentHistory':
      return `Who did what to the ${what}, and when.`;
    case 'documentPull':
      return `An unsaved ${what} from one source bill (id), with its open quantities.`;
    case 'documentPullCheck':
      return `Whether a ${what} may be made from the source bill (id).`;
    case 'documentGenerate':
      return `An unsaved ${what} generated from the source bill number (${r.document?.source?.numberParam ?? 'billNo'}).`;
    case 'documentPostings':
      return `The stock and party ledger rows the ${what} wrote.`;
    case 'documentOpenLines':
      return `The partner's source lines not yet taken into a ${what}${params.grouped ? ', grouped by source bill' : ''}.`;
    case 'documentGrouped':
      return `One ${what} with its lines grouped by source bill.`;
    case 'sum':
      return `Totals of ${(e.sum ?? []).join(', ')} over every ${what} row the filters match${where}, with the row count.`;
    case 'custom':
      return `Handler ${e.handler}.`;
    default:
      return `${e.op}.`;
  }
}

function readResources(): ResourceFile[] {
  const fragments = readFragments(schemasDir);
  const out: ResourceFile[] = [];
  for (const dir of fs.readdirSync(schemasDir, { withFileTypes: true })) {
    if (!dir.isDirectory() || NOT_RESOURCES.has(dir.name)) continue;
    for (const file of fs.readdirSync(path.join(schemasDir, dir.name)).filter((f) => f.endsWith('.json')).sort()) {
      out.push(resolveResource(JSON.parse(fs.readFileSync(path.join(schemasDir, dir.name, file), 'utf8')) as ResourceFile, fragments));
    }
  }
  return out;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function render(): string {
  const byModule = new Map<string, { path: string; method: string; text: string; resource: string; addition: boolean }[]>();
  for (const r of readResources()) {
    for (const e of r.api.endpoints) {
      const full = e.path.startsWith('/') ? e.path : `${r.api.base}/${e.path}`;
      const rows = byModule.get(r.module) ?? [];
      rows.push({ path: full, method: e.method, text: e.description ?? describe(r, e), resource: r.resource, addition: Boolean(e.addition) });
      byModule.set(r.module, rows);
    }
  }
  const lines = [
    '# Calls',
    '',
    'Every endpoint the schemas declare, under `/api`, written by `npm run gen:types` (generators/calls.ts) from',
    'the schema files: edit a schema, regenerate, and this table follows. ★ marks a call the spec\'s catalogue',
    '(spec 001 §7) does not list: an addition of ours. Reads take `current`/`size` and the list filters;',
    'document actions take `id` and `version`.',
    '',
  ];
  const order = [...Object.keys(MODULES), ...[...byModule.keys()].filter((m) => !(m in MODULES)).sort()];
  for (const module of order) {
    const rows = byModule.get(module);
    if (!rows?.length) continue;
    rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
    lines.push(`## ${MODULES[module] ?? module} (${rows.length})`, '', '| Method | Path | What it does | Resource |', '|---|---|---|---|');
    for (const row of rows) lines.push(`| ${row.method} | \`${row.path}\`${row.addition ? ' ★' : ''} | ${cell(row.text)} | ${row.resource} |`);
    lines.push('');
  }
  return lines.join('\n');
}

const text = render();
if (check) {
  const current = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
  if (current !== text) {
    console.error('docs/calls.md is stale: run npm run gen:types');
    process.exit(1);
  }
} else {
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, text);
}
