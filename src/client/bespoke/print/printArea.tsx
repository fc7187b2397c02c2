/**
 * Printing through the layout's hidden print area: the sheet renders there (display: none on
 * screen, alone on paper through print.css), its images load, and the print starts 500 ms later
 * (spec 000 §9), giving fonts and a receipt's QR code time to paint. The sheet stays in the area
 * until the next print replaces it, so nothing depends on when the print dialog closes.
 */
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { PRINT_DELAY_MS, paperOf } from '../../../shared/print.ts';
import './printArea.css';

let root: Root | undefined;

function printArea(): HTMLElement {
  let area = document.getElementById('print-area');
  if (!area) {
    area = document.createElement('div');
    area.id = 'print-area';
    area.style.display = 'none';
    document.body.appendChild(area);
  }
  return area;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const MM_PER_PX = 25.4 / 96;

function render(area: HTMLElement, sheet: ReactNode, page: string) {
  root ??= createRoot(area);
  flushSync(() =>
    root!.render(
      <>
        <style>{page}</style>
        {sheet}
      </>,
    ),
  );
}

/** The sheet's height in mm at `widthMm`, measured off screen (the area is hidden on screen). */
function measuredHeight(area: HTMLElement, widthMm: number): number {
  const hidden = area.getAttribute('style') ?? '';
  area.setAttribute('style', `position: absolute; left: -10000px; top: 0; width: ${widthMm}mm; visibility: hidden`);
  const px = area.scrollHeight;
  area.setAttribute('style', hidden);
  return Math.ceil(px * MM_PER_PX);
}

/**
 * Renders `sheet` into the print area on `paper` (a print_paper key, or a size in mm where height
 * 'auto' makes the page as long as the sheet: a receipt roll) and prints it.
 */
export async function printInArea(sheet: ReactNode, paper: string | { width: number; height: number | 'auto' }, margin = '8mm'): Promise<void> {
  const area = printArea();
  const size = typeof paper === 'string' ? paperOf(paper) : paper;
  const pageCss = (height: number) => `@page { size: ${size.width}mm ${height}mm; margin: ${margin}; }`;
  render(area, sheet, pageCss(size.height === 'auto' ? size.width : size.height));
  const images = [...area.querySelectorAll('img')];
  await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
  await document.fonts?.ready;
  if (size.height === 'auto') {
    const marginMm = Number.parseFloat(margin) || 0;
    render(area, sheet, pageCss(measuredHeight(area, size.width - 2 * marginMm) + 2 * marginMm + 2));
  }
  await wait(PRINT_DELAY_MS);
  window.print();
}
