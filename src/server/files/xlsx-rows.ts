/**
 * Reading the rows of an uploaded .xlsx for the hand-written imports (报溢单 readExcel, 应收/应付
 * 调整单 exportInfo, 期初财务 exportCustomerInfo / exportSupplierInfo): the multipart field `file`,
 * checked as every upload is (name, size within the upload limit, content an .xlsx), its first
 * sheet's row 1 matched against the accepted column titles, and each later non-empty row as text
 * cells with its row number, so problems can be named by row (第3行：…).
 */
import ExcelJS from 'exceljs';
import type { Ctx } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { checkUpload } from './storage.ts';

export interface SheetSpec {
  /** Field → accepted column titles (the Chinese title first, as the template shows it). */
  columns: Record<string, string[]>;
  /** Fields whose column must be present. */
  required: string[];
  /** The message when a required column is missing (第1行应为列标题：…). */
  titles: string;
  /** More rows than this are refused rather than read. */
  max: number;
  /** When given, filled with the multipart text fields sent before the file (a bill id, a partner). */
  fields?: Record<string, string>;
}

export interface SheetRow {
  /** The row number in the sheet (row 1 holds the titles). */
  number: number;
  /** Field → the cell's text ('' when empty). */
  cells: Record<string, string>;
}

/** A cell's value as text: numbers as written, rich text joined, formulas by their result, dates as yyyy-MM-dd. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value.trim();
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('').trim();
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text).trim();
  }
  return String(value).trim();
}

/** The uploaded sheet's data rows; refused (400) when it is not a readable .xlsx with the required titles and at least one row. */
export async function readUploadedSheet(ctx: Ctx, spec: SheetSpec): Promise<SheetRow[]> {
  const limit = ctx.services.config.uploadLimit;
  if (!ctx.req.isMultipart()) throw badRequest('请上传xlsx文件（字段名file）');
  const part = await ctx.req.file();
  if (!part || part.fieldname !== 'file') throw badRequest('请上传xlsx文件（字段名file）');
  const content = await part.toBuffer();
  if (part.file.truncated) throw badRequest(`上传文件大小不能超过${Math.round(limit / 1024 / 1024)}M`);
  checkUpload(part.filename, content, limit, ['xlsx']);
  if (spec.fields) {
    for (const [key, value] of Object.entries(part.fields ?? {})) {
      const field = Array.isArray(value) ? value[0] : value;
      if (field && field.type === 'field') spec.fields[key] = String(field.value ?? '');
    }
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw badRequest('文件不是有效的 xlsx');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest('文件中没有工作表');
  const titles = Array.from(sheet.getRow(1).values as ExcelJS.CellValue[], (v) => cellText(v));
  const columnOf: Record<string, number> = {};
  for (const [field, names] of Object.entries(spec.columns)) {
    const at = titles.findIndex((t) => names.some((n) => n.toLowerCase() === t.toLowerCase()));
    if (at > 0) columnOf[field] = at;
  }
  if (spec.required.some((f) => !columnOf[f])) throw badRequest(spec.titles);

  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const values = row.values as ExcelJS.CellValue[];
    const cells = Object.fromEntries(Object.keys(spec.columns).map((field) => [field, columnOf[field] ? cellText(values[columnOf[field]]) : '']));
    if (Object.values(cells).every((c) => c === '')) return;
    rows.push({ number, cells });
  });
  if (!rows.length) throw badRequest('文件中没有明细行');
  if (rows.length > spec.max) throw badRequest(`明细不能超过${spec.max}行，文件中有${rows.length}行`);
  return rows;
}
