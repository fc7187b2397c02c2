/**
 * antd's component styles made at build time (issue 17: antd's style engine made them on every
 * page load, 10% of a list's time to its first row on this 2-core machine). The components the
 * frame, a list and a form dialog draw are rendered once on the server side of the build, and the
 * styles antd's engine made for them are written as one CSS file with antd's own map of what it
 * holds (`.data-ant-cssinjs-cache-path`): in the browser antd's engine finds each of these
 * components' styles already there and makes only the rest (rarer components, and the CSS
 * variables of the active theme). antd 6 writes its component styles with CSS variables, so the
 * file is the same for every shell theme, light or dark.
 */
import { createElement as h, type ReactNode } from 'react';

/**
 * What the frame, a list page and a form dialog draw, as seen in the browser (the customer list
 * at its first row, then its 新增 dialog): antd's grid is not among them (the search bar lays
 * itself out), nor the date picker, table, tree or upload, which make their styles when used.
 */
async function commonComponents(): Promise<ReactNode[]> {
  const antd = await import('antd');
  const { Avatar, Badge, Button, Checkbox, Divider, Dropdown, Empty, Flex, Input, InputNumber, Layout } = antd;
  const { Menu, Modal, Pagination, Popover, Radio, Select, Space, Spin, Tabs, Tooltip } = antd;
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
    h(Input.TextArea),
    h(Select),
    h(Pagination, { total: 100 }),
    h(Modal, { open: false }),
    h(InputNumber),
    h(Checkbox),
    h(Radio.Group, { options: ['x'] }),
  ];
}

/** The CSS of the common components' styles (antd's production class names), with antd's map. */
export async function renderAntdStyles(production = true): Promise<string> {
  const [{ renderToString }, { createCache, extractStyle, StyleProvider }, { ConfigProvider }] = await Promise.all([
    import('react-dom/server'),
    import('@ant-design/cssinjs'),
    import('antd'),
  ]);
  const cache = createCache();
  const children = await commonComponents();
  renderToString(h(StyleProvider, { cache }, h(ConfigProvider, null, ...children)));
  const css = extractStyle(cache, { types: ['style'], plain: true });
  // antd names its classes differently outside production: such a file would match nothing.
  if (production && css.includes('css-dev-only-do-not-override')) throw new Error('antd styles: antd was loaded outside production mode');
  return css;
}
