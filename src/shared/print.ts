/**
 * Printing constants shared by the print settings (server defaults) and the browser's print
 * sheet: paper sizes in millimetres by the print_paper dictionary key, and the spec's delay
 * between a print sheet rendering and the print starting (spec 000 §9: 500 ms).
 */
export const PAPERS: Record<string, { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  A4L: { width: 297, height: 210 },
  A5L: { width: 210, height: 148 },
  '241x140': { width: 241, height: 140 },
  '241x93': { width: 241, height: 93 },
};

export const PRINT_DELAY_MS = 500;

/** The paper of a template, A4 portrait for a key no one knows. */
export function paperOf(key: unknown): { width: number; height: number } {
  return PAPERS[String(key)] ?? PAPERS.A4;
}
