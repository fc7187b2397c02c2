/**
 * Produces a string matching a simple regular expression (the subset schemas use for field
 * patterns: anchors, literals, escapes \d \w \s, classes, groups with alternatives, quantifiers).
 * Lookaheads are skipped, so callers check the result with the real RegExp.
 */
type Node =
  | { kind: 'alt'; options: Node[][] }
  | { kind: 'chars'; pick: () => string }
  | { kind: 'repeat'; node: Node; min: number; max: number }
  | { kind: 'empty' };

const DIGITS = '0123456789';
const WORD = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const pickFrom = (chars: string) => () => chars[Math.floor(Math.random() * chars.length)];

function escapeSet(ch: string): string {
  if (ch === 'd') return DIGITS;
  if (ch === 'w') return WORD;
  if (ch === 's') return ' ';
  return ch;
}

function parse(src: string): Node {
  let i = 0;
  const parseAlt = (): Node => {
    const options: Node[][] = [[]];
    while (i < src.length && src[i] !== ')') {
      if (src[i] === '|') {
        i++;
        options.push([]);
        continue;
      }
      const atom = parseAtom();
      options[options.length - 1].push(parseQuantifier(atom));
    }
    return { kind: 'alt', options };
  };
  const parseAtom = (): Node => {
    const ch = src[i++];
    if (ch === '^' || ch === '$') return { kind: 'empty' };
    if (ch === '(') {
      if (src.startsWith('?=', i) || src.startsWith('?!', i)) {
        // Lookahead: skipped; the caller verifies with the real RegExp.
        let depth = 1;
        while (i < src.length && depth) {
          if (src[i] === '\\') i++;
          else if (src[i] === '(') depth++;
          else if (src[i] === ')') depth--;
          i++;
        }
        return { kind: 'empty' };
      }
      if (src.startsWith('?:', i)) i += 2;
      const inner = parseAlt();
      i++; // ')'
      return inner;
    }
    if (ch === '[') {
      let negate = false;
      if (src[i] === '^') {
        negate = true;
        i++;
      }
      let set = '';
      while (i < src.length && src[i] !== ']') {
        let c = src[i++];
        if (c === '\\') c = escapeSet(src[i++]);
        else if (src[i] === '-' && src[i + 1] !== ']' && i + 1 < src.length) {
          const end = src[i + 1];
          i += 2;
          for (let code = c.charCodeAt(0); code <= end.charCodeAt(0); code++) set += String.fromCharCode(code);
          continue;
        }
        set += c;
      }
      i++; // ']'
      const chars = negate ? [...PRINTABLE].filter((c) => !set.includes(c)).join('') : set;
      return { kind: 'chars', pick: pickFrom(chars) };
    }
    if (ch === '\\') return { kind: 'chars', pick: pickFrom(escapeSet(src[i++])) };
    if (ch === '.') return { kind: 'chars', pick: pickFrom(WORD) };
    return { kind: 'chars', pick: () => ch };
  };
  const parseQuantifier = (node: Node): Node => {
    const ch = src[i];
    if (ch === '?') return (i++, { kind: 'repeat', node, min: 0, max: 1 });
    if (ch === '*') return (i++, { kind: 'repeat', node, min: 0, max: 4 });
    if (ch === '+') return (i++, { kind: 'repeat', node, min: 1, max: 4 });
    if (ch === '{') {
      const close = src.indexOf('}', i);
      const [a, b] = src.slice(i + 1, close).split(',');
      i = close + 1;
      const min = Number(a);
      const max = b === undefined ? min : b === '' ? min + 4 : Number(b);
      return { kind: 'repeat', node, min, max };
    }
    return node;
  };
  return parseAlt();
}

function generate(node: Node, rand: () => number): string {
  switch (node.kind) {
    case 'empty':
      return '';
    case 'chars':
      return node.pick();
    case 'repeat': {
      const n = node.min + Math.floor(rand() * (node.max - node.min + 1));
      return Array.from({ length: n }, () => generate(node.node, rand)).join('');
    }
    case 'alt': {
      const option = node.options[Math.floor(rand() * node.options.length)];
      return option.map((n) => generate(n, rand)).join('');
    }
  }
}

/** A value matching `pattern` of at most `maxLength` characters, or undefined when none was found. */
export function sampleFor(pattern: string, maxLength = 255): string | undefined {
  const re = new RegExp(pattern);
  const tree = parse(pattern);
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = generate(tree, Math.random);
    if (value && value.length <= maxLength && re.test(value)) return value;
  }
  return undefined;
}
