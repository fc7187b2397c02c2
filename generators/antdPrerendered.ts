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
import { componentKeyOf, type AntdStyleSheets } from './antdStyles.ts';

const PRERENDERED_ID = 'virtual:antd-prerendered';
/** A style module of antd (`es/<component>/style/…`, `es/_util/wave/style.js`). */
const ANTD_STYLE_MODULE = /[\\/]node_modules[\\/]antd[\\/]es[\\/].*[\\/]style(?:[\\/][^\\/]+)?\.js$/;
const DEFERRED_PREFIX = 'virtual:antd-styles/';
const STYLE_HOOK_MAKERS = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);

/** The components (antd's `Component-Sub` keys) whose styles the built CSS holds, from its map. */
export function prerenderedComponents(css: string): Set<string> {
  const map = /data-ant-cssinjs-cache-path\{content:"([^"]*)"/.exec(css)?.[1] ?? '';
  return new Set(
    map
      .split(';')
      .map(componentKeyOf)
      .filter((key) => Boolean(key) && key !== 'Shared'),
  );
}

/** The stylesheet of a component the dialogs draw (`virtual:antd-styles/Modal-Modal.css`). */
export const deferredSheetId = (key: string) => `virtual:antd-styles/${key}.css`;

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
export function stubStyleFunctions(code: string, program: unknown, known: Set<string>, deferred: Set<string> = new Set()): string | undefined {
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
  // A dialog component's sheet comes with the module that asks for its styles, wherever it goes.
  const sheets = [...new Set(edits.map((edit) => edit.key))].filter((key) => deferred.has(key)).map((key) => `import '${deferredSheetId(key)}';\n`);
  return `${sheets.join('')}import { prerenderedStyle as __prerenderedStyle } from '${PRERENDERED_ID}';\n${out}`;
}

/** The stub each replaced style function becomes (only ever called if the engine misses the file's map). */
export const PRERENDERED_MODULE = `export const prerenderedStyle = (key) => () => {
  reportError(new Error('antd style not in the built CSS: ' + key));
  return [];
};`;

/**
 * The build plugin; `sheets` makes the built stylesheets (the frame's map says which components
 * they hold). It also serves each dialog component's sheet.
 */
export function antdPrerendered(sheets: () => Promise<AntdStyleSheets>): Plugin {
  let enabled = false;
  let components: Promise<{ known: Set<string>; deferred: Set<string> }> | undefined;
  return {
    name: 'erp-antd-prerendered',
    apply: 'build',
    configResolved() {
      // ANTD_PRERENDERED=0 keeps antd's style functions (to compare builds).
      enabled = process.env.ANTD_PRERENDERED !== '0';
    },
    resolveId: (id) => (id === PRERENDERED_ID || id.startsWith(DEFERRED_PREFIX) ? `\0${id}` : undefined),
    async load(id) {
      if (id === `\0${PRERENDERED_ID}`) return PRERENDERED_MODULE;
      if (!id.startsWith(`\0${DEFERRED_PREFIX}`)) return undefined;
      const key = id.slice(DEFERRED_PREFIX.length + 1, -'.css'.length);
      return (await sheets()).deferred.get(key) ?? '';
    },
    async transform(code, id) {
      if (!enabled || !ANTD_STYLE_MODULE.test(id) || !/gen(?:StyleHooks|ComponentStyleHook|SubStyleComponent)\(/.test(code)) return undefined;
      components ??= sheets().then((built) => ({ known: prerenderedComponents(built.frame), deferred: new Set(built.deferred.keys()) }));
      const { known, deferred } = await components;
      const stubbed = stubStyleFunctions(code, this.parse(code), known, deferred);
      return stubbed === undefined ? undefined : { code: stubbed, map: null };
    },
  };
}
