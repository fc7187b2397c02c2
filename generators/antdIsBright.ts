/**
 * antd's Button and Tag style tokens ask whether a colour is bright, with a helper antd keeps in
 * the colour picker's preset panel (`color-picker/components/ColorPresets.js`). Importing it
 * brings that panel's module, and with it antd's Collapse, to every page that draws a button
 * (issue 17: ~2.5 KiB gzip of each list). This plugin gives those two style modules antd's own
 * `isBright`, cut out of that file at build time, in a module of its own. If a later antd moves or
 * rewrites it, the cut fails and the style modules import the panel as before.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vite';

export const IS_BRIGHT_ID = '\0antd-is-bright';
const PRESETS = '../../color-picker/components/ColorPresets';
/** The style modules that import only `isBright` from the presets panel. */
const TOKEN_IMPORTERS = /[\\/]node_modules[\\/]antd[\\/]es[\\/](?:button|tag)[\\/]style[\\/][^\\/]+\.js$/;

/**
 * antd's `isBright` as a module of its own, from the presets panel's source, or undefined when
 * the source no longer has it in the form this expects.
 */
export function isBrightModule(presetsSource: string): string | undefined {
  const fn = /^export const isBright = \([^)]*\) => \{\n[\s\S]*?\n\};\n/m.exec(presetsSource)?.[0];
  const colorImport = /^import \{[^}]*\bColor as RcColor\b[^}]*\} from '@rc-component\/color-picker';$/m.test(presetsSource);
  // What the function uses must be what this module imports: RcColor and nothing else of the file.
  if (!fn || !colorImport || /\b(?:useToken|Collapse|generateColor|ColorBlock)\b/.test(fn)) return undefined;
  return `import { Color as RcColor } from '@rc-component/color-picker';\n${fn}`;
}

export function antdIsBright(): Plugin {
  let presetsFile: string | undefined;
  return {
    name: 'erp-antd-is-bright',
    apply: 'build',
    // Before Vite's own resolver, which would resolve the relative import first.
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== PRESETS || !importer || !TOKEN_IMPORTERS.test(importer)) return undefined;
      const file = resolve(dirname(importer), `${PRESETS}.js`);
      if (!isBrightModule(readFileSync(file, 'utf8'))) return undefined;
      presetsFile = file;
      return IS_BRIGHT_ID;
    },
    load(id) {
      return id === IS_BRIGHT_ID && presetsFile ? isBrightModule(readFileSync(presetsFile, 'utf8')) : undefined;
    },
  };
}
