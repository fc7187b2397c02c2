/**
 * A printed bill as data: the heading, the head fields in rows, the line table with its totals,
 * the amount in words and the signature line, built from the bill, its print template and the
 * field schemas. Pure: values become text through `text` (dictionaries, places), so the sheet is
 * tested without a browser.
 */
import Decimal from 'decimal.js';
import type { FieldSchema } from '../../../shared/resource.ts';
import { amountInWords } from './amountWords.ts';

export interface PrintTemplate {
  billType: string;
  title?: string;
  paper?: string;
  headColumns?: number | string;
  fontSize?: number | string;
  headFields?: string;
  lineFields?: string;
  amountField?: string;
  showTotals?: number | string;
  showCompany?: number | string;
  showPrintTime?: number | string;
  signatures?: string;
  footer?: string;
}

export interface SheetCell {
  label: string;
  text: string;
}

export interface SheetColumn {
  label: string;
  numeric: boolean;
}

export interface Sheet {
  company?: string;
  title: string;
  printedAt?: string;
  headColumns: number;
  head: SheetCell[];
  columns: SheetColumn[];
  rows: string[][];
  /** One cell per column (the first says 合计), blank where nothing adds up. */
  totals?: string[];
  amountInWords?: { label: string; words: string; figure: string };
  signatures: SheetCell[];
  footer?: string;
  fontSize: number;
}

export interface SheetInput {
  template: PrintTemplate;
  /** The bill's title when the template has none. */
  billTitle: string;
  bill: Record<string, unknown>;
  lines: Record<string, unknown>[];
  headFields: Record<string, FieldSchema>;
  lineFields: Record<string, FieldSchema>;
  /** The field's display text (dictionary label, grouped decimals). */
  text(field: FieldSchema | undefined, value: unknown): string;
  /** The field's title in the interface language. */
  title(field: FieldSchema | undefined, name: string): string;
  labels: { index: string; totals: string; amountWords: string; printedAt: string };
  company?: string;
  /** Names of the users behind ids (审核人 shows a person, not an id). */
  users: Record<string, string>;
  now: string;
}

const YES = '2';
const USER_FIELDS = new Set(['auditUser', 'accountingUser', 'createUser', 'updateUser']);
/** Signatures filled from the bill; the others are left blank to sign by hand. */
const SIGNED_BY: Record<string, string> = { 制单人: 'createUserName', 审核人: 'auditUser', 记账人: 'accountingUser' };

export function namesOf(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** Quantities and amounts add up; prices, rates and codes do not. */
function adds(field: FieldSchema | undefined): boolean {
  const kind = field?.['x-decimal'];
  return kind === 'quantity' || kind === 'amount';
}

export function buildSheet(input: SheetInput): Sheet {
  const { template, bill, lines, headFields, lineFields, text, title, users } = input;
  const valueText = (name: string, field: FieldSchema | undefined, value: unknown) =>
    USER_FIELDS.has(name) && !blank(value) ? (users[String(value)] ?? String(value)) : text(field, value);

  const head = namesOf(template.headFields)
    .filter((name) => headFields[name])
    .map((name) => ({ label: title(headFields[name], name), text: valueText(name, headFields[name], bill[name]) }));

  const columnNames = namesOf(template.lineFields).filter((name) => lineFields[name]);
  const columns: SheetColumn[] = [
    { label: input.labels.index, numeric: false },
    ...columnNames.map((name) => ({ label: title(lineFields[name], name), numeric: lineFields[name]['x-decimal'] !== undefined })),
  ];
  const rows = lines.map((line, i) => [String(i + 1), ...columnNames.map((name) => valueText(name, lineFields[name], line[name]))]);

  let totals: string[] | undefined;
  if (String(template.showTotals ?? YES) === YES && lines.length) {
    totals = [
      input.labels.totals,
      ...columnNames.map((name) => {
        const field = lineFields[name];
        if (!adds(field)) return '';
        const sum = lines.reduce((acc, line) => (blank(line[name]) ? acc : acc.plus(String(line[name]))), new Decimal(0));
        return text(field, sum.toString());
      }),
    ];
  }

  const amountField = template.amountField && headFields[template.amountField] ? template.amountField : undefined;
  const amount = amountField ? bill[amountField] : undefined;
  const words = amountField && !blank(amount) ? amountInWords(amount) : '';

  return {
    company: String(template.showCompany ?? YES) === YES && input.company ? input.company : undefined,
    title: template.title || input.billTitle,
    printedAt: String(template.showPrintTime ?? YES) === YES ? input.now : undefined,
    headColumns: Math.min(4, Math.max(2, Number(template.headColumns) || 3)),
    head,
    columns,
    rows,
    totals,
    amountInWords: words ? { label: input.labels.amountWords, words, figure: text(headFields[amountField!], amount) } : undefined,
    signatures: namesOf(template.signatures).map((label) => {
      const source = SIGNED_BY[label];
      const value = source ? bill[source] : undefined;
      return { label, text: source && !blank(value) ? valueText(source, headFields[source], value) : '' };
    }),
    footer: template.footer || undefined,
    fontSize: Math.min(16, Math.max(9, Number(template.fontSize) || 12)),
  };
}
