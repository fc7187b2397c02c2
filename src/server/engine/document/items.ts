/**
 * Item lines (document.items) must fit their bill: each names an item that exists, and where
 * `match` is declared the item's fields equal the head's (an expense bill takes expense items,
 * 其他收入单 income items). One read of the items; a refusal names every bad line.
 */
import type { Services } from '../../services.ts';
import type { Actor, Row } from '../store.ts';
import type { DictSeed } from '../../../shared/resource.ts';
import { badRequest } from '../../errors.ts';
import type { DocumentModel } from './context.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** A value as the screens name it: its dictionary item's name when the field has one. */
function shown(dicts: DictSeed[], code: unknown, value: unknown): string {
  const dict = typeof code === 'string' ? dicts.find((d) => d.code === code) : undefined;
  return dict?.items.find((i) => i.key === String(value))?.value ?? String(value ?? '');
}

/** Called with the head as it will be stored (a saved bill's fields not sent again included), after the head's own rules. */
export async function checkItems(services: Services, actor: Actor, dm: DocumentModel, head: Row, lines: Row[]): Promise<void> {
  const items = dm.doc.items!;
  const lineProps = dm.lineModel?.resource?.entity.properties ?? {};
  const ref = lineProps[items.item]?.['x-ref'];
  if (typeof ref !== 'string') return;
  const target = services.m(ref);
  const ids = [...new Set(lines.map((l) => l[items.item]).filter((v) => !blank(v)).map(String))];
  const found = new Map((ids.length ? await services.store.find(target, actor.tenantId, { where: { id: ids } }) : []).map((r) => [String(r.id), r]));
  const itemTitle = String(lineProps[items.item]?.title ?? items.item);
  const label = target.resource?.pickers?.default?.label;
  const problems: { index: number; field: string; message: string }[] = [];
  lines.forEach((line, index) => {
    const fail = (message: string) => problems.push({ index, field: items.item, message: `第${index + 1}行：${message}` });
    if (blank(line[items.item])) return;
    const item = found.get(String(line[items.item]));
    if (!item) return fail(`${itemTitle}不存在或已被删除`);
    const name = String(item[label ?? 'id'] ?? item.id);
    for (const [itemField, headField] of Object.entries(items.match ?? {})) {
      if (blank(head[headField]) || String(item[itemField]) === String(head[headField])) continue;
      const prop = dm.model.resource?.entity.properties[headField];
      const dict = prop?.['x-dict'] ?? prop?.['x-dictBiz'];
      const title = String(prop?.title ?? headField);
      fail(`${itemTitle}「${name}」的${title}是「${shown(services.registry.dicts, dict, item[itemField])}」，本单是「${shown(services.registry.dicts, dict, head[headField])}」`);
    }
  });
  if (problems.length) {
    const field = (p: { index: number; field: string }) => `${dm.doc.lines ?? 'lines'}.${p.index}.${p.field}`;
    throw badRequest(problems.map((p) => p.message).join('；'), { fieldErrors: Object.fromEntries(problems.map((p) => [field(p), p.message])), lineErrors: problems });
  }
}
