/**
 * Prints a saved bill with its bill type's template (系统设置 → 打印设置): the template, the
 * company name and the names of the bill's users come from forBill, the field schemas from the
 * bill's resource and its line resource, dictionary labels and decimal places as the lists show
 * them; the sheet renders into the hidden print area and prints.
 */
import { createElement } from 'react';
import { documentFor, documentOf } from '../../../shared/document.ts';
import type { FieldSchema, ResourceFile } from '../../../shared/resource.ts';
import { formatDateTime } from '../../../shared/dates.ts';
import { ApiError, http } from '../../api/http.ts';
import { notifier } from '../../api/notify.ts';
import { useSettings } from '../../store/settings.ts';
import { formatCell } from '../../renderer/common/format.ts';
import { loadFieldDictionary, type DictEntry } from '../../renderer/common/useDictionary.ts';
import { loadResource } from '../../renderer/common/useResource.ts';
import { buildSheet, namesOf, type PrintTemplate } from './sheet.ts';
import { PrintSheet } from './PrintSheet.tsx';
import { printInArea } from './printArea.tsx';
import { printText } from './i18n.ts';

interface ForBill {
  template: PrintTemplate;
  company: string;
  users: Record<string, string>;
  bill: { title: string; titleEn?: string; lineResource?: string };
}

const USER_IDS = ['auditUser', 'accountingUser'];

/** Loads the dictionaries of the fields the template shows, by field name. */
async function dictionariesOf(fields: Record<string, FieldSchema>, names: string[]): Promise<Map<string, DictEntry[]>> {
  const pairs = await Promise.all(names.filter((n) => fields[n]).map(async (n) => [n, await loadFieldDictionary(fields[n]).catch(() => [])] as const));
  return new Map(pairs.filter(([, items]) => items.length));
}

/** Prints the bill; a failure is said in a message (a refused call has already said why). */
export async function printBill(resource: ResourceFile, bill: Record<string, unknown>): Promise<void> {
  try {
    await printSaved(resource, bill);
  } catch (error) {
    if (!(error instanceof ApiError)) notifier().error(printText('print.failed', { reason: error instanceof Error ? error.message : String(error) }));
  }
}

async function printSaved(resource: ResourceFile, bill: Record<string, unknown>): Promise<void> {
  const doc = documentOf(resource)!;
  const billType = documentFor(doc, bill).billType;
  const userIds = USER_IDS.map((f) => bill[f]).filter((v) => v !== undefined && v !== null && v !== '');
  const answer = await http.get<ForBill>('/api/blade-system/printtemplate/forBill', { billType, userIds: userIds.join(',') });
  const { template } = answer;
  const lineResource = answer.bill.lineResource ? await loadResource(answer.bill.lineResource) : undefined;
  const headFields = resource.entity.properties;
  const lineFields = lineResource?.entity.properties ?? {};
  const lineNames = namesOf(template.lineFields);
  const headNames = [...namesOf(template.headFields), ...(template.amountField ? [template.amountField] : [])];
  const [headDicts, lineDicts] = await Promise.all([dictionariesOf(headFields, headNames), dictionariesOf(lineFields, lineNames)]);
  const english = useSettings.getState().language === 'en';
  const dictOf = (field: FieldSchema | undefined) => {
    for (const [name, items] of [...headDicts, ...lineDicts]) if (headFields[name] === field || lineFields[name] === field) return items;
    return undefined;
  };
  const sheet = buildSheet({
    template,
    billTitle: english && answer.bill.titleEn ? answer.bill.titleEn : answer.bill.title,
    bill,
    lines: doc.lines ? ((bill[doc.lines] as Record<string, unknown>[] | undefined) ?? []) : [],
    headFields,
    lineFields,
    text: (field, value) => formatCell(field, undefined, value, dictOf(field)),
    title: (field, name) => String((english && field?.['x-titleEn']) || field?.title || name),
    labels: { index: printText('print.index'), totals: printText('print.totals'), amountWords: printText('print.amountWords'), printedAt: printText('print.printedAt') },
    company: answer.company,
    users: answer.users,
    now: `${printText('print.printedAt')}：${formatDateTime()}`,
  });
  await printInArea(createElement(PrintSheet, { sheet }), String(template.paper ?? 'A4'));
}
