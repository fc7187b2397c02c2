import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { themeBootScript } from './src/client/app/theme/palette.ts';
import { website } from './src/client/app/website.ts';
import { antdIconOf } from './src/shared/menuIcons.ts';
import { SEEDED_TOP_MENUS } from './src/shared/topMenus.ts';
import { resolveResource } from './src/shared/fragments.ts';
import { readFragments } from './src/shared/fragments-fs.ts';
import type { ResourceFile } from './src/shared/resource.ts';
import { resourceFiles } from './src/server/engine/registry.ts';
import { validatorModule } from './src/server/engine/validate.ts';
import { renderAntdStyleSheets, type AntdStyleSheets } from './generators/antdStyles.ts';
import { antdPrerendered } from './generators/antdPrerendered.ts';
import { antdIsBright, IS_BRIGHT_ID } from './generators/antdIsBright.ts';
import { barrelExports as readBarrelExports, barrelTargets, namesImportedFrom, type BarrelExports } from './generators/barrelImports.ts';

const root = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8080';

/**
 * Writes .br and .gz beside every text asset of the build, so the server sends them compressed
 * without compressing on each request (fastify-static preCompressed).
 */
function precompress(): Plugin {
  // The build's own folder: a bench builds into a temporary one and must not touch dist/.
  let out = resolve(root, 'dist/client');
  return {
    name: 'erp-precompress',
    apply: 'build',
    configResolved(config) {
      out = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const full = resolve(dir, name);
          return statSync(full).isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(out)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * Writes each entity's compiled validator into the build (validators/<resource>.js), the module
 * our server generates at /validators/<resource>.js from the same schemas: the browser's field
 * checks then still match the schemas when the build is served before a server that lacks that
 * call (a real BladeX backend).
 */
function entityValidators(): Plugin {
  return {
    name: 'erp-entity-validators',
    apply: 'build',
    async generateBundle() {
      const schemasDir = resolve(root, 'schemas');
      const fragments = readFragments(schemasDir);
      for (const file of resourceFiles(schemasDir)) {
        const resource = resolveResource(JSON.parse(readFileSync(file, 'utf8')) as ResourceFile, fragments);
        this.emitFile({ type: 'asset', fileName: `validators/${resource.resource}.js`, source: validatorModule(resource.entity) });
      }
    },
  };
}

/** Applies the stored theme before the first paint: the script is inlined into <head>. */
function themeBoot(): Plugin {
  return {
    name: 'erp-theme-boot',
    transformIndexHtml: (html) =>
      html.replace('<!--theme-boot-->', `<script>${themeBootScript(website.storageKey)}</script>`),
  };
}

const MENU_ICONS_ID = 'virtual:menu-icons';
const ICON_GROUP_PREFIX = `${MENU_ICONS_ID}/group/`;

interface SeededIcons {
  /** Icons of the top menus and the root menus: drawn with the shell, bundled with it. */
  eager: string[];
  /** Per root menu, the icons of its subtree not already eager (each group its own chunk). */
  groups: string[][];
}

/** Icon names (`source`) used by the seeded menu tree and top menus, split as above. */
function seededIcons(): SeededIcons {
  const file = resolve(root, 'schemas/menus.json');
  if (!existsSync(file)) return { eager: [], groups: [] };
  const iconsDir = dirname(require.resolve('@ant-design/icons/package.json'));
  // BladeX keeps icon-font classes ("iconfont icon-printer"): the antd icon each stands for.
  const iconOf = (source: unknown) => {
    const name = typeof source === 'string' ? antdIconOf(source) : undefined;
    return name && existsSync(resolve(iconsDir, 'es/icons', `${name}.js`)) ? name : undefined;
  };
  interface Node { source?: unknown; children?: Node[] }
  const roots = (JSON.parse(readFileSync(file, 'utf8')) as { menus: Node[] }).menus;
  const placed = new Set<string>();
  for (const name of [...SEEDED_TOP_MENUS.map((top) => iconOf(top.source)), ...roots.map((node) => iconOf(node.source))]) {
    if (name) placed.add(name);
  }
  const eager = [...placed].sort();
  const groups = roots.map((node) => {
    const names: string[] = [];
    const walk = (children: Node[] | undefined) => {
      for (const child of children ?? []) {
        const name = iconOf(child.source);
        if (name && !placed.has(name)) {
          placed.add(name);
          names.push(name);
        }
        walk(child.children);
      }
    };
    walk(node.children);
    return names.sort();
  });
  return { eager, groups: groups.filter((names) => names.length) };
}

const iconImports = (names: string[]) => names.map((name) => `import ${name} from '@ant-design/icons/es/icons/${name}';`).join('\n');

/**
 * `virtual:menu-icons`: only the icons the seeded menus use, so the shell does not ship all of
 * @ant-design/icons. The top and root menus' icons come with the shell; each root menu's subtree
 * icons are a small chunk (`virtual:menu-icons/group/N`) loaded when one of them is drawn. Other
 * names fall back to a lazily loaded full set.
 */
function menuIcons(): Plugin {
  const resolvedId = `\0${MENU_ICONS_ID}`;
  let icons: SeededIcons | undefined;
  return {
    name: 'erp-menu-icons',
    buildStart() {
      icons = undefined;
    },
    resolveId: (id) => (id === MENU_ICONS_ID || id.startsWith(ICON_GROUP_PREFIX) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(resolvedId)) return undefined;
      this.addWatchFile(resolve(root, 'schemas/menus.json'));
      icons ??= seededIcons();
      if (id.startsWith(`\0${ICON_GROUP_PREFIX}`)) {
        const names = icons.groups[Number(id.slice(ICON_GROUP_PREFIX.length + 1))] ?? [];
        return `${iconImports(names)}\nexport default { ${names.join(', ')} };\n`;
      }
      const groupOf = icons.groups.flatMap((names, index) => names.map((name) => `${name}: ${index}`));
      const loaders = icons.groups.map((_, index) => `() => import('${ICON_GROUP_PREFIX}${index}')`);
      return [
        iconImports(icons.eager),
        `export const menuIcons = { ${icons.eager.join(', ')} };`,
        `export const iconGroupOf = { ${groupOf.join(', ')} };`,
        `export const iconGroupLoaders = [${loaders.join(', ')}];`,
        '',
      ].join('\n');
    },
  };
}

const ANTD_STYLES_ID = 'virtual:antd-styles.css';
/** The entry module of an antd rc-component package (see `treeshake` below). */
const RC_COMPONENT_BARREL = /[\\/]node_modules[\\/]@rc-component[\\/][^\\/]+[\\/]es[\\/]index\.js$/;
/** `@rc-component/form`: an import of such a barrel. */
const RC_COMPONENT_PACKAGE = /^@rc-component\/[\w-]+$/;

/**
 * `virtual:antd-styles.css`: antd's styles of the commonly drawn components, made by the build
 * (generators/antdStyles.ts) instead of by antd's style engine on every page load. Empty in the
 * dev server, where antd names its classes for development and makes every style itself.
 */
function antdStyles(): Plugin {
  let production = false;
  return {
    name: 'erp-antd-styles',
    configResolved(config) {
      production = config.command === 'build';
    },
    resolveId: (id) => (id === ANTD_STYLES_ID ? `\0${ANTD_STYLES_ID}` : undefined),
    async load(id) {
      if (id !== `\0${ANTD_STYLES_ID}`) return undefined;
      if (!production) return '';
      const built = await antdStyleSheets();
      // Without the style functions left out, nothing imports the dialogs' sheets: all in one.
      return process.env.ANTD_PRERENDERED === '0' ? built.frame + [...built.deferred.values()].join('') : built.frame;
    },
  };
}

/** The build's antd stylesheets, made once per build process (the frame's, and the dialogs'). */
let sheets: Promise<AntdStyleSheets> | undefined;
const antdStyleSheets = () => (sheets ??= renderAntdStyleSheets());

/** An icon module of @ant-design/icons or its SVG definitions. */
const ICON_MODULE = /[\\/]node_modules[\\/]@ant-design[\\/]icons(?:-svg)?[\\/]es[\\/](?:icons|asn)[\\/]/;
/** What every list route draws: the frame, the layout and the list page. */
const SHELL_ROOTS = /[\\/]src[\\/]client[\\/](?:app[\\/]AntdFrame|app[\\/]layout[\\/]MainLayout|renderer[\\/]list[\\/]ListPage)\.tsx$/;
const SIGN_IN_PAGE = /[\\/]src[\\/]client[\\/]app[\\/]pages[\\/]login[\\/]LoginPage\.tsx$/;
const shellIconModules = new Set<string>();
/** What every signed-in page draws: the frame and the layout. */
const FRAME_ROOTS = /[\\/]src[\\/]client[\\/]app[\\/](?:AntdFrame|layout[\\/]MainLayout)\.tsx$/;
const frameLibraryModules = new Set<string>();

/**
 * The icons the frame, the layout and a list page import (statically, through any module), found
 * once the module graph is complete, for the `shell-icons` chunk below; and the library modules
 * the frame and the layout import, for `frame-lib`.
 */
function shellIcons(): Plugin {
  return {
    name: 'erp-shell-icons',
    buildEnd() {
      const exportsOfBarrel = new Map<string, BarrelExports>();
      /**
       * A package barrel imported by name (antd's, which imports every component, and the
       * rc-component packages'): only the modules that define those names.
       */
      const throughBarrels = (code: string, imported: readonly string[]): readonly string[] => {
        const replaced = new Map<string, string[]>();
        for (const [specifier, names] of namesImportedFrom(code, (name) => name === 'antd' || RC_COMPONENT_PACKAGE.test(name))) {
          const barrelId = imported.find((other) => other.replaceAll('\\', '/').endsWith(`/node_modules/${specifier}/es/index.js`));
          const barrelInfo = barrelId ? this.getModuleInfo(barrelId) : null;
          if (!barrelId || !barrelInfo?.code) continue;
          if (!exportsOfBarrel.has(barrelId)) exportsOfBarrel.set(barrelId, readBarrelExports(barrelInfo.code));
          const targets = barrelTargets(exportsOfBarrel.get(barrelId)!, names)?.map((target) =>
            barrelInfo.importedIds.find((other) => [target, `${target}.js`, `${target}/index.js`].some((candidate) => other === resolve(dirname(barrelId), candidate))),
          );
          // A name not traced to one module: follow the whole barrel, as the bundler keeps it.
          if (targets && targets.every((target) => target)) replaced.set(barrelId, targets as string[]);
        }
        return replaced.size ? imported.flatMap((other) => replaced.get(other) ?? [other]) : imported;
      };
      const importsOf = (id: string): readonly string[] => {
        const info = this.getModuleInfo(id);
        return info?.code ? throughBarrels(info.code, info.importedIds) : (info?.importedIds ?? []);
      };
      const reachable = (roots: string[]) => {
        const seen = new Set<string>();
        const stack = [...roots];
        while (stack.length) {
          const id = stack.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...importsOf(id));
        }
        return seen;
      };
      const ids = [...this.getModuleIds()];
      // The sign-in page draws a few of the same SVG definitions (app/plain): those stay apart.
      const signIn = reachable(ids.filter((id) => this.getModuleInfo(id)?.isEntry || SIGN_IN_PAGE.test(id)));
      shellIconModules.clear();
      for (const id of reachable(ids.filter((id) => SHELL_ROOTS.test(id)))) {
        if (ICON_MODULE.test(id) && !signIn.has(id)) shellIconModules.add(id);
      }
      frameLibraryModules.clear();
      if (process.env.FRAME_GROUP !== '0') {
        for (const id of reachable(ids.filter((id) => FRAME_ROOTS.test(id)))) {
          // antd's own isBright, cut out of its module by the build (generators/antdIsBright.ts).
          const library = /[\\/]node_modules[\\/]/.test(id) || id === IS_BRIGHT_ID;
          if (library && !ICON_MODULE.test(id) && !signIn.has(id)) frameLibraryModules.add(id);
        }
      }
    },
  };
}

export default defineConfig({
  root: resolve(root, 'src/client'),
  publicDir: resolve(root, 'src/client/public'),
  plugins: [react(), themeBoot(), menuIcons(), antdStyles(), antdPrerendered(antdStyleSheets), antdIsBright(), entityValidators(), precompress(), shellIcons()],
  build: {
    outDir: resolve(root, 'dist/client'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // Which chunk holds which module: the route-loads browser test checks what each route pulls.
    manifest: true,
    rolldownOptions: {
      output: process.env.SHELL_ICONS === '0' ? undefined : {
        codeSplitting: {
          groups: [
            {
              name: 'shell-icons',
              test: (id: string) => shellIconModules.has(id),
              // Only the icons: their imports (React, antd's icon component) stay where they are.
              includeDependenciesRecursively: false,
            },
            {
              // The libraries' modules every signed-in page runs (antd's components of the frame
              // and the layout, rc-components, zustand …), less the sign-in page's: one file
              // instead of ~25 small ones shared by different sets of pages (a file costs more
              // than its bytes here). FRAME_GROUP=0 builds without it, for comparing the two.
              name: 'frame-lib',
              test: (id: string) => frameLibraryModules.has(id),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
      treeshake: {
        // The barrels of antd's rc-component packages (their `es/index.js`) hang sub-components on
        // the default export (Form.Field = Field, …) and say nothing of side effects, so a bundler
        // must keep them whole as soon as anything imports from the package: antd's Input reaches
        // rc-form's entry for its FormProvider and drags rc-form and its validator into every
        // page. Read as side-effect free, a barrel is kept only when its own exports are used.
        // Every other module keeps the default (undefined: its package.json's word).
        moduleSideEffects: (id: string) => (RC_COMPONENT_BARREL.test(id) ? false : undefined),
      },
    },
  },
  server: {
    port: 5173,
    // Only API calls: the client's own modules live under /api/*.ts too (src/client/api).
    proxy: {
      '^/api/(?!.*\\.[cm]?[jt]sx?(\\?|$))': { target: apiTarget, changeOrigin: true },
      // The entity validators the server generates from its schemas (form/entityValidators.ts).
      '^/validators/': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: {
    // Only API calls: the client's own modules live under /api/*.ts too (src/client/api).
    proxy: {
      '^/api/(?!.*\\.[cm]?[jt]sx?(\\?|$))': { target: apiTarget, changeOrigin: true },
      // The entity validators the server generates from its schemas (form/entityValidators.ts).
      '^/validators/': { target: apiTarget, changeOrigin: true },
    },
  },
});
