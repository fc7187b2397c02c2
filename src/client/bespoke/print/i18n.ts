import { translator } from '../../i18n/translator.ts';

/** Strings of printing (the print sheet, the print buttons). */
export const printZh = {
  'print.index': '序号',
  'print.totals': '合计',
  'print.amountWords': '合计金额（大写）',
  'print.printedAt': '打印时间',
  'print.failed': '打印失败：{reason}',
} as const;

export type PrintKey = keyof typeof printZh;

export const printEn: Record<PrintKey, string> = {
  'print.index': 'No.',
  'print.totals': 'Total',
  'print.amountWords': 'Total in words',
  'print.printedAt': 'Printed',
  'print.failed': 'Printing failed: {reason}',
};

/** A print string in the language of the moment (printing runs outside React's render). */
export const printText = translator<PrintKey>(printZh as Record<PrintKey, string>, printEn).text;
