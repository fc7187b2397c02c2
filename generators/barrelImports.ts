/**
 * Which modules a module really reaches through a package's barrel (its `es/index.js`), for the
 * build's chunk groups (vite.config.ts, `frame-lib`): antd's own barrel, which imports every
 * component, and its rc-component packages'. The bundler reads these barrels as side-effect free,
 * so a barrel costs nothing when only a few of its names are used;
 * but a group that takes "everything the frame imports" must not follow the barrel to all its
 * modules either, or the code that only lazily loaded pages use (rc-form's Form for the form
 * engine, the colour picker…) is placed in the group and loads with every page.
 *
 * Conservative by design: whenever a name cannot be traced to one module by the plain forms the
 * barrels use, the caller follows the whole barrel, as before.
 */

/** A barrel's names: exported name → the relative specifier of the module that defines it. */
export type BarrelExports = Map<string, string>;

const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** `a`, `b as c`, `default as d` → [local, exported] pairs. */
function specifiers(list: string): [string, string][] {
  return list
    .replace(COMMENTS, '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [local, exported] = part.split(/\s+as\s+/);
      return [local!.trim(), (exported ?? local)!.trim()];
    });
}

/**
 * The names a barrel's code re-exports and where each comes from (live bindings, which the
 * bundler resolves past the barrel). Names it defines itself, `export *` and `export default X`
 * are left out: the caller then follows the whole barrel for them.
 */
export function barrelExports(code: string): BarrelExports {
  const source = code.replace(COMMENTS, '');
  const exported: BarrelExports = new Map();
  // Local bindings imported from a relative module: local name → specifier.
  const imported = new Map<string, string>();
  for (const [, clause, from] of source.matchAll(/import\s+([\w$\s{},]+?)\s+from\s*["'](\.[^"']+)["']/g)) {
    const braces = clause!.match(/\{([^}]*)\}/);
    const defaultName = clause!.replace(/\{[^}]*\}/, '').replace(',', '').trim();
    if (defaultName && !defaultName.startsWith('*')) imported.set(defaultName, from!);
    // `{ a as b }`: b is the local binding.
    for (const [, local] of braces ? specifiers(braces[1]!) : []) imported.set(local, from!);
  }
  for (const [, list, from] of source.matchAll(/export\s*\{([^}]*)\}\s*from\s*["'](\.[^"']+)["']/g)) {
    for (const [, name] of specifiers(list!)) exported.set(name, from!);
  }
  for (const [, list] of source.matchAll(/export\s*\{([^}]*)\}\s*(?!\s*from)[;\n]/g)) {
    for (const [local, name] of specifiers(list!)) {
      const from = imported.get(local);
      if (from) exported.set(name, from);
    }
  }
  // `export default X` is not traced: it exports a value the barrel holds, so the bundler keeps
  // the barrel and runs the rest of its code (rc-collapse's `export const { Panel } = Collapse`).
  return exported;
}

/** What a module imports from one package: the names, or `all` (a namespace import, a side-effect import). */
export type ImportedNames = Set<string> | 'all';

/**
 * The names a module's code imports (or re-exports) from each bare specifier that `wanted`
 * accepts: `import A, { b as c } from 'pkg'` → pkg: {default, b}.
 */
export function namesImportedFrom(code: string, wanted: (specifier: string) => boolean): Map<string, ImportedNames> {
  const source = code.replace(COMMENTS, '');
  const result = new Map<string, ImportedNames>();
  const add = (specifier: string, names: string[] | 'all') => {
    if (!wanted(specifier)) return;
    const known = result.get(specifier);
    if (names === 'all' || known === 'all') return void result.set(specifier, 'all');
    result.set(specifier, new Set([...(known ?? []), ...names]));
  };
  for (const [, clause, from] of source.matchAll(/import\s+([\w$\s{},*]+?)\s+from\s*["']([^"'.][^"']*)["']/g)) {
    if (clause!.includes('*')) {
      add(from!, 'all');
      continue;
    }
    const braces = clause!.match(/\{([^}]*)\}/);
    const names = braces ? specifiers(braces[1]!).map(([name]) => name) : [];
    if (clause!.replace(/\{[^}]*\}/, '').replace(',', '').trim()) names.push('default');
    add(from!, names);
  }
  for (const [, from] of source.matchAll(/import\s*["']([^"'.][^"']*)["']/g)) add(from!, 'all');
  for (const [, from] of source.matchAll(/export\s*\*\s*(?:as\s+[\w$]+\s+)?from\s*["']([^"'.][^"']*)["']/g)) add(from!, 'all');
  for (const [, list, from] of source.matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"'.][^"']*)["']/g)) {
    add(from!, specifiers(list!).map(([name]) => name));
  }
  return result;
}

/**
 * The relative specifiers a module reaches through a barrel for the given names, or undefined
 * when one of them is not traced (follow the whole barrel).
 */
export function barrelTargets(exports: BarrelExports, names: ImportedNames): string[] | undefined {
  if (names === 'all') return undefined;
  const targets = [...names].map((name) => exports.get(name));
  return targets.every((target) => target !== undefined) ? [...new Set(targets as string[])] : undefined;
}
