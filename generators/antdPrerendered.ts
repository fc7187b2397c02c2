/**
 * antd's style functions of the components whose styles the build made (`virtual:antd-styles.css`,
 * generators/antdStyles.ts) left out of the bundle (issue 17). antd's engine looks a component's
 * styles up in that file's map (`.data-ant-cssinjs-cache-path`) before it calls the component's
 * style function, so for these components the function is never called, yet those functions were
 * ~35 KiB (gzip) of every list page. In each antd style module, the style function given to
 * `genStyleHooks` (and its kin) for such a component becomes a stub; what only that function used
 * is then dropped by tree shaking. The components' tokens (their CSS variables, made per theme at
 * run time) are untouched.
 *
 * Should the engine ever miss one (a component drawn with a prefix the build did not render), the
 * stub reports it as a page error — the browser tests fail on it; a user sees that component
 * unstyled, nothing else breaks.
 */
import type { Plugin } from 'vite';

const PRERENDERED_ID = 'virtual:antd-prerendered';
/** A style module of antd (`es/<component>/style/…`, `es/_util/wave/style.js`). */
const ANTD_STYLE_MODULE = /[\\/]node_modules[\\/]antd[\\/]es[\\/].*[\\/]style(?:[\\/][^\\/]+)?\.js$/;
const STYLE_HOOK_MAKERS = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);

/** The components (antd's `Component-Sub` keys) whose styles the built CSS holds, from its map. */
export function prerenderedComponents(css: string): Set<string> {
  const map = /data-ant-cssinjs-cache-path\{content:"([^"]*)"/.exec(css)?.[1] ?? '';
  return new Set(
    map
      .split(';')
      .map((entry) => entry.split(':')[0]!.split('|')[1])
      .filter((key): key is string => Boolean(key) && key !== 'Shared'),
  );
}

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** antd's key of a style hook's component argument: 'Menu' → Menu-Menu, ['Input', 'Shared'] → Input-Shared. */
function componentKey(argument: Node): string | undefined {
  if (argument.type === 'Literal' && typeof argument.value === 'string') return `${argument.value}-${argument.value}`;
  const cells = argument.type === 'ArrayExpression' ? (argument.elements as (Node | null)[]) : undefined;
  if (!cells?.every((cell) => cell?.type === 'Literal' && typeof cell.value === 'string')) return undefined;
  return cells.map((cell) => String(cell!.value)).join('-');
}

/**
 * The module's code with the style function of each known component replaced by a stub, or
 * undefined when it has none. `program` is the module's ESTree (with start/end offsets).
 */
export function stubStyleFunctions(code: string, program: unknown, known: Set<string>): string | undefined {
  const edits: { start: number; end: number; key: string }[] = [];
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    const node = value as Node;
    const callee = node.callee as Node | undefined;
    const args = node.arguments as Node[] | undefined;
    if (node.type === 'CallExpression' && callee?.type === 'Identifier' && STYLE_HOOK_MAKERS.has(callee.name as string) && args && args.length >= 2) {
      const key = componentKey(args[0]!);
      if (key && known.has(key)) edits.push({ start: args[1]!.start, end: args[1]!.end, key });
    }
    for (const child of Object.values(node)) if (child && typeof child === 'object') visit(child);
  };
  visit(program);
  if (!edits.length) return undefined;
  let out = code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, edit.start)}__prerenderedStyle(${JSON.stringify(edit.key)})${out.slice(edit.end)}`;
  }
  return `import { prerenderedStyle as __prerenderedStyle } from '${PRERENDERED_ID}';\n${out}`;
}

/** The stub each replaced style function becomes (only ever called if the engine misses the file's map). */
export const PRERENDERED_MODULE = `export const prerenderedStyle = (key) => () => {
  reportError(new Error('antd style not in the built CSS: ' + key));
  return [];
};`;

/** The build plugin; `css` makes the built stylesheet (its map says which components it holds). */
export function antdPrerendered(css: () => Promise<string>): Plugin {
  let enabled = false;
  let components: Promise<Set<string>> | undefined;
  return {
    name: 'erp-antd-prerendered',
    apply: 'build',
    configResolved() {
      // ANTD_PRERENDERED=0 keeps antd's style functions (to compare builds).
      enabled = process.env.ANTD_PRERENDERED !== '0';
    },
    resolveId: (id) => (id === PRERENDERED_ID ? `\0${PRERENDERED_ID}` : undefined),
    load: (id) => (id === `\0${PRERENDERED_ID}` ? PRERENDERED_MODULE : undefined),
    async transform(code, id) {
      if (!enabled || !ANTD_STYLE_MODULE.test(id) || !/gen(?:StyleHooks|ComponentStyleHook|SubStyleComponent)\(/.test(code)) return undefined;
      components ??= css().then(prerenderedComponents);
      const stubbed = stubStyleFunctions(code, this.parse(code), await components);
      return stubbed === undefined ? undefined : { code: stubbed, map: null };
    },
  };
}
