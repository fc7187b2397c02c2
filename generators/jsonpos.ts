/**
 * A small JSON reader that remembers the line of every value by its JSON pointer, so lint can
 * print `file:line: message` for a problem found in the parsed data.
 */
export function jsonLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) {
      if (text[i] === '\n') line++;
      i++;
    }
  };
  const str = (): string => {
    let out = '';
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        out += text[i + 1] === 'n' ? '\n' : text[i + 1];
        i += 2;
      } else out += text[i++];
    }
    i++;
    return out;
  };
  const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  const value = (pointer: string) => {
    ws();
    lines.set(pointer, line);
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        const key = str();
        ws();
        i++; // colon
        value(`${pointer}/${escape(key)}`);
        ws();
        if (text[i++] === '}') return;
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        value(`${pointer}/${n}`);
        ws();
        if (text[i++] === ']') return;
      }
    }
    if (ch === '"') return void str();
    while (i < text.length && /[^,}\]\s]/.test(text[i])) i++;
  };
  value('');
  return lines;
}

/** Line of the deepest known ancestor of a pointer (a missing key reports its parent). */
export function lineOf(lines: Map<string, number>, pointer: string): number {
  let p = pointer;
  for (;;) {
    const hit = lines.get(p);
    if (hit !== undefined) return hit;
    if (!p) return 1;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}
