/**
 * antd's component styles made at build time (issue 17: antd's style engine made them on every
 * page load, 10% of a list's time to its first row on this 2-core machine). The components the
 * frame, a list and the dialogs draw are rendered once on the server side of the build, and the
 * styles antd's engine made for them are written as CSS with antd's own map of what it holds
 * (`.data-ant-cssinjs-cache-path`): in the browser antd's engine finds each of these components'
 * styles already there and makes only the rest (rarer components, and the CSS variables of the
 * active theme). The frame's sheet holds the map and the rules of what the frame and a list draw;
 * the dialogs' components each have a sheet of their own that comes with their code. antd 6
 * writes its component styles with CSS variables, so the sheets are the same for every shell
 * theme, light or dark.
 */
import { createElement as h, type ReactNode } from 'react';

/**
 * What the frame and a list page draw, as seen in the browser (the customer list at its first
 * row): antd's grid is not among them (the search bar lays itself out), nor the date picker,
 * table, tree or upload, which make their styles when used.
 */
async function commonComponents(): Promise<ReactNode[]> {
  const antd = await import('antd');
  const { Avatar, Badge, Button, Checkbox, Divider, Dropdown, Empty, Flex, Input, Layout } = antd;
  const { Menu, Pagination, Popover, Select, Space, Spin, Tabs, Tooltip } = antd;
  return [
    h(Layout, null, h(Layout.Sider), h(Layout.Header), h(Layout.Content)),
    h(Menu, { items: [{ key: 'a', label: 'x' }] }),
    h(Tabs, { items: [{ key: 'a', label: 'x' }] }),
    h(Dropdown, { menu: { items: [] } }, h('span', null, 'x')),
    h(Avatar),
    h(Badge, { count: 1 }),
    h(Tooltip, { title: 'x' }, h('span', null, 'x')),
    h(Popover, { content: 'x' }, h('span', null, 'x')),
    h(Button, null, 'x'),
    h(Space, null, 'x'),
    h(Flex, null, 'x'),
    h(Divider),
    h(Spin),
    h(Empty),
    h(Input),
    h(Select),
    h(Pagination, { total: 100 }),
    h(Checkbox),
  ];
}

/**
 * What only the form dialogs and antd's dialogs draw (none of it on a list's first page): each
 * its own stylesheet, which comes with the chunk that holds the component's code (see
 * generators/antdPrerendered.ts), and antd's map still names it from the frame's sheet.
 */
async function dialogComponents(): Promise<ReactNode[]> {
  const { Input, InputNumber, Modal, Radio } = await import('antd');
  return [h(Modal, { open: false }), h(InputNumber), h(Input.TextArea), h(Radio.Group, { options: ['x'] })];
}

export interface AntdStyleSheets {
  /** The frame's sheet: the common components' rules and antd's map of every component made. */
  frame: string;
  /** Per antd component key (`Modal-Modal` …), the rules of a dialog component. */
  deferred: Map<string, string>;
}

/** antd's map rule (`.data-ant-cssinjs-cache-path{content:"path:hash;…"}`) and what it names. */
const CACHE_MAP_RULE = /\.data-ant-cssinjs-cache-path\{content:"([^"]*)";?\}/;

function splitMap(css: string): { rules: string; entries: string[] } {
  const match = CACHE_MAP_RULE.exec(css);
  if (!match) throw new Error('antd styles: no cache-path map in the extracted CSS');
  return { rules: css.replace(match[0], ''), entries: match[1] ? match[1].split(';') : [] };
}

/** The component key (`Button-Button`) of a map entry (`css-hash|Button-Button|ant-btn|anticon:hash`). */
export const componentKeyOf = (entry: string) => entry.split(':')[0]!.split('|')[1] ?? '';

/** The stylesheets (antd's production class names), the frame's with antd's map of them all. */
export async function renderAntdStyleSheets(production = true): Promise<AntdStyleSheets> {
  const [{ renderToString }, { createCache, extractStyle, StyleProvider }, { ConfigProvider }] = await Promise.all([
    import('react-dom/server'),
    import('@ant-design/cssinjs'),
    import('antd'),
  ]);
  const cache = createCache();
  // Each call extracts only what the renders since the last one added (`once`).
  const render = (children: ReactNode[]) => {
    renderToString(h(StyleProvider, { cache }, h(ConfigProvider, null, ...children)));
    return splitMap(extractStyle(cache, { types: ['style'], plain: true, once: true }));
  };
  const frame = render(await commonComponents());
  const entries = [...frame.entries];
  const deferred = new Map<string, string>();
  for (const component of await dialogComponents()) {
    const sheet = render([component]);
    entries.push(...sheet.entries);
    for (const entry of sheet.entries) {
      const key = componentKeyOf(entry);
      deferred.set(key, (deferred.get(key) ?? '') + sheet.rules);
    }
  }
  const map = `.data-ant-cssinjs-cache-path{content:"${entries.join(';')}";}`;
  const css = frame.rules + map;
  // antd names its classes differently outside production: such a file would match nothing.
  if (production && css.includes('css-dev-only-do-not-override')) throw new Error('antd styles: antd was loaded outside production mode');
  return { frame: css, deferred };
}

/** The frame's sheet (with antd's map of every component the build made). */
export async function renderAntdStyles(production = true): Promise<string> {
  return (await renderAntdStyleSheets(production)).frame;
}
