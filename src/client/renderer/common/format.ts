import type { FieldSchema } from '../../../shared/resource.ts';
import { formatAmount } from '../../../shared/money/format.ts';
import { placesFromConfig } from '../../../shared/money/places.ts';
import { useSession } from '../../store/session.ts';
import { useSettings } from '../../store/settings.ts';
import { rt } from './i18n.ts';
import { dictItemOf, dictSourceOf, type DictEntry } from './useDictionary.ts';
import type { ColumnDef, ColumnFormat } from './views.ts';

export type DecimalKind = 'price' | 'amount' | 'quantity';

/** Spec §9 places from the system config (UNIT/AMT/NUMBER_DECIMAL_PLACES), by the rule shared with the server. */
export function decimalPlaces(kind: DecimalKind): number {
  return placesFromConfig(useSession.getState().config)[kind];
}

/**
 * Exact decimal text with three-digit grouping, rounded half up at `places`; zero shows 0.00
 * (spec §9). The logic lives in src/shared/money so the server prints the same figures.
 */
export function formatDecimal(value: unknown, places: number): string {
  if (typeof value !== 'string' && typeof value !== 'number') return formatAmount(value, places);
  // Grids format the same few figures over and over (each drawn row's cells on every scroll step,
  // a line's cells and the summary on every commit); exact decimal rounding is the costly part.
  const key = `${places}|${typeof value === 'number' ? 'n' : 's'}${value}`;
  let text = formatted.get(key);
  if (text === undefined) {
    if (formatted.size >= FORMATTED_LIMIT) formatted.clear();
    text = formatAmount(value, places);
    formatted.set(key, text);
  }
  return text;
}

const FORMATTED_LIMIT = 10_000;
const formatted = new Map<string, string>();

export function maskPhone(value: string): string {
  return value.length >= 7 ? `${value.slice(0, 3)}${'*'.repeat(value.length - 7)}${value.slice(-4)}` : value;
}

/** The display format of a column: declared, else derived from the field's keywords. */
export function columnFormatOf(
  field: FieldSchema | undefined,
  column?: Pick<ColumnDef, 'format'>,
): ColumnFormat | 'dict' | 'decimal' {
  if (column?.format) return column.format;
  if (!field) return 'text';
  if (dictSourceOf(field)) return 'dict';
  const kind = field['x-decimal'];
  if (kind === 'price') return 'price';
  if (kind === 'amount') return 'money';
  if (kind === 'quantity') return 'quantity';
  if (typeof kind === 'number') return 'decimal';
  if (field.format === 'date-time') return 'datetime';
  if (field.format === 'date') return 'date';
  if (typeof field.pattern === 'string' && field.pattern.includes('\\d{4}-\\d{2}-\\d{2}')) {
    // An optional time part shows the value as sent.
    return field.pattern.includes(':') ? 'datetime' : 'date';
  }
  if (field.type === 'boolean') return 'boolean';
  return 'text';
}

/** True for the kinds a summary row may add up. */
export function isNumericFormat(format: ReturnType<typeof columnFormatOf>): boolean {
  return (
    format === 'money' || format === 'quantity' || format === 'decimal' || format === 'price' || format === 'percent'
  );
}

function dictLabel(items: DictEntry[] | undefined, value: unknown, multi: boolean): string {
  const language = useSettings.getState().language;
  const label = (key: unknown) => {
    const item = dictItemOf(items, key);
    if (!item) return key === null || key === undefined ? '' : String(key);
    return language === 'en' && item.valueEn ? item.valueEn : item.dictValue;
  };
  if (multi && typeof value === 'string' && value.includes(',')) return value.split(',').map(label).join(',');
  return label(value);
}

function booleanLabel(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const truthy = value === true || value === 1 || value === '1' || value === 'true';
  return rt(truthy ? 'list.yes' : 'list.no');
}

/**
 * Display text of one cell: money/price/quantity at the configured places with grouping,
 * dates, booleans, dictionary labels (pass the field's items), masked phones.
 */
export function formatCell(
  field: FieldSchema | undefined,
  column: Pick<ColumnDef, 'format'> | undefined,
  value: unknown,
  dictionary?: DictEntry[],
): string {
  const format = columnFormatOf(field, column);
  if (dictionary?.length || format === 'dict') return dictLabel(dictionary, value, Boolean(field?.['x-multi']));
  if (value === null || value === undefined) return '';
  switch (format) {
    case 'money':
      return formatDecimal(value, decimalPlaces('amount'));
    case 'price':
      return formatDecimal(value, decimalPlaces('price'));
    case 'quantity':
      return formatDecimal(value, decimalPlaces('quantity'));
    case 'decimal':
      return formatDecimal(value, typeof field?.['x-decimal'] === 'number' ? field['x-decimal'] : 2);
    case 'percent': {
      const text = formatDecimal(value, 2);
      return text ? `${text}%` : '';
    }
    case 'date':
      return String(value).slice(0, 10);
    case 'datetime':
      return String(value);
    case 'boolean':
      return booleanLabel(value);
    case 'phone-masked':
      return maskPhone(String(value));
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
