/**
 * Labels as one self-contained HTML page, one label a page at the label's size: the title field
 * large, the other fields as 标题：值 lines, and a Code 128 barcode drawn by JsBarcode as inline
 * SVG (a value Code 128 cannot encode, such as Chinese text, prints without a barcode).
 */
import JsBarcode from 'jsbarcode';

export interface LabelDef {
  width: number;
  height: number;
  title: string;
  fields?: string[];
  barcode?: string[];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const blank = (v: unknown) => v === undefined || v === null || v === '';

function barcodeSvg(value: string): string {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  try {
    JsBarcode(svg, value, { format: 'CODE128', width: 1.2, height: 36, fontSize: 12, margin: 0, displayValue: true });
    return svg.outerHTML;
  } catch {
    return '';
  }
}

export function labelsHtml(def: LabelDef, rows: Record<string, unknown>[], titleOf: (field: string) => string): string {
  const labels = rows.map((row) => {
    const lines = (def.fields ?? [])
      .filter((f) => !blank(row[f]))
      .map((f) => `<div class="f">${escapeHtml(titleOf(f))}：${escapeHtml(String(row[f]))}</div>`)
      .join('');
    const code = (def.barcode ?? []).map((f) => row[f]).find((v) => !blank(v));
    const barcode = code === undefined ? '' : barcodeSvg(String(code));
    return `<section class="label"><div class="t">${escapeHtml(String(row[def.title] ?? ''))}</div>${lines}${barcode ? `<div class="b">${barcode}</div>` : ''}</section>`;
  });
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: ${def.width}mm ${def.height}mm; margin: 0; }
html, body { margin: 0; padding: 0; }
.label { width: ${def.width}mm; height: ${def.height}mm; box-sizing: border-box; padding: 2mm 3mm; overflow: hidden; display: flex; flex-direction: column;
  break-after: page; font-family: 'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', 'PingFang SC', sans-serif; font-size: 8pt; line-height: 1.35; color: #000; }
.label:last-child { break-after: auto; }
.t { font-size: 11pt; font-weight: 700; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.f { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.b { margin-top: auto; text-align: center; }
.b svg { max-width: 100%; height: auto; }
</style></head><body>${labels.join('')}</body></html>`;
}
