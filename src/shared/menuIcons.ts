/**
 * Menu icons: BladeX keeps an icon-font class in a menu's `source` ("iconfont icon-shopping-cart"),
 * which a Saber client puts on an <i>; our client draws the matching @ant-design/icons component.
 * The seeded menus store the BladeX form; a name already in antd form (an older database, or an
 * administrator's choice) is used as it is.
 */
const SUFFIXES: [string, string][] = [
  ['-filled', 'Filled'],
  ['-twotone', 'TwoTone'],
];

/** ShoppingCartOutlined → "iconfont icon-shopping-cart" (Filled/TwoTone keep a suffix). */
export function iconClassOf(antdName: string): string {
  const match = /^([A-Z][A-Za-z0-9]*?)(Outlined|Filled|TwoTone)$/.exec(antdName);
  if (!match) return antdName;
  const kebab = match[1].replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const suffix = SUFFIXES.find(([, s]) => s === match[2])?.[0] ?? '';
  return `iconfont icon-${kebab}${suffix}`;
}

/** "iconfont icon-shopping-cart" → ShoppingCartOutlined; an antd name passes through; others: undefined. */
export function antdIconOf(source: string | undefined): string | undefined {
  if (!source) return undefined;
  if (/^[A-Z][A-Za-z0-9]+(Outlined|Filled|TwoTone)$/.test(source)) return source;
  const match = /(?:^|\s)icon-([a-z0-9-]+)/.exec(source);
  if (!match) return undefined;
  let body = match[1];
  let kind = 'Outlined';
  for (const [suffix, name] of SUFFIXES) {
    if (body.endsWith(suffix)) {
      body = body.slice(0, -suffix.length);
      kind = name;
    }
  }
  return `${body.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}${kind}`;
}
