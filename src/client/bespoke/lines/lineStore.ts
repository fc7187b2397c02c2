/**
 * The lines of one open bill, outside React: the grid updates only the row that changed and the
 * summary row; the bill form never re-renders while the clerk types in the grid.
 */
import type { DocumentDef } from '../../../shared/document.ts';
import type { Places } from '../../../shared/money/index.ts';
import { newKey, recompute, type GridLine, type LineValues } from './lineModel.ts';

type Listener = (change: { kind: 'rows' } | { kind: 'row'; line: GridLine; previous: GridLine }) => void;

export class LineStore {
  private lines: GridLine[] = [];
  private readonly listeners = new Set<Listener>();

  constructor(
    readonly doc: DocumentDef,
    public places: Places,
  ) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: Parameters<Listener>[0]) {
    for (const l of this.listeners) l(change);
  }

  all(): GridLine[] {
    return this.lines;
  }

  /** Replaces every line (a bill loaded, pulled from a source, or cleared). */
  load(values: LineValues[], recomputeFigures = false): void {
    this.lines = values.map((v) => {
      const key = v.id ? String(v.id) : newKey();
      if (!recomputeFigures) return { key, values: v, errors: {} };
      const r = recompute(this.doc, v, this.places);
      return { key, values: r.values, errors: r.errors };
    });
    this.emit({ kind: 'rows' });
  }

  add(values: LineValues): GridLine {
    const r = recompute(this.doc, values, this.places);
    const line = { key: newKey(), values: r.values, errors: r.errors };
    this.lines = [...this.lines, line];
    this.emit({ kind: 'rows' });
    return line;
  }

  remove(keys: string[]): void {
    this.lines = this.lines.filter((l) => !keys.includes(l.key));
    this.emit({ kind: 'rows' });
  }

  /** One line changed: its figures follow, the row and the summary repaint. */
  update(key: string, patch: LineValues): void {
    const index = this.lines.findIndex((l) => l.key === key);
    if (index < 0) return;
    const previous = this.lines[index];
    const r = recompute(this.doc, { ...previous.values, ...patch }, this.places);
    const line = { key, values: r.values, errors: r.errors };
    this.lines = this.lines.map((l, i) => (i === index ? line : l));
    this.emit({ kind: 'row', line, previous });
  }

  setErrors(lines: GridLine[]): void {
    this.lines = lines;
    this.emit({ kind: 'rows' });
  }

  /** Lines as sent to the server (client keys are not ids). */
  snapshot(): LineValues[] {
    return this.lines.map((l) => {
      const values = { ...l.values };
      if (l.key.startsWith('new-')) delete values.id;
      return values;
    });
  }

  /** Client checks before a save: every line's first problem, with its line number. */
  problems(): string[] {
    return this.lines.flatMap((l, i) => {
      const first = Object.values(l.errors)[0];
      return first ? [`第${i + 1}行：${first}`] : [];
    });
  }
}
