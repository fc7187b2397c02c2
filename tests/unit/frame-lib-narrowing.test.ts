import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { barrelExports, barrelTargets, namesImportedFrom } from '../../generators/barrelImports.ts';
import { isBrightModule } from '../../generators/antdIsBright.ts';

const require = createRequire(import.meta.url);
const source = (module: string) => fs.readFileSync(require.resolve(module), 'utf8');
const barrelOf = (pkg: string) => barrelExports(fs.readFileSync(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'es/index.js'), 'utf8'));

describe("what the frame's libraries reach through antd's and rc-component barrels (issue 17, frame-lib)", () => {
  test('a name the barrel re-exports is traced to the module that defines it', () => {
    const form = barrelOf('@rc-component/form');
    expect(barrelTargets(form, new Set(['FormProvider']))).toEqual(['./FormContext']);
    expect(barrelTargets(form, new Set(['useForm', 'Field']))).toEqual(['./hooks/useForm', './Field']);
    const util = barrelOf('@rc-component/util');
    expect(barrelTargets(util, new Set(['useEvent', 'omit']))).toEqual(['./hooks/useEvent', './omit']);
    expect(barrelTargets(barrelOf('@rc-component/color-picker'), new Set(['Color']))).toEqual(['./color']);
  });

  test("antd's own barrel is read the same way: a component name leads to its folder", () => {
    const antd = barrelOf('antd');
    expect(barrelTargets(antd, new Set(['Button', 'theme', 'ConfigProvider']))).toEqual(['./button', './theme', './config-provider']);
    // `unstableSetRender` is defined in the barrel itself: the whole barrel is followed.
    expect(barrelTargets(antd, new Set(['Button', 'unstableSetRender']))).toBeUndefined();
    expect(namesImportedFrom(`import { Button, theme as antdTheme } from 'antd';`, (name) => name === 'antd').get('antd')).toEqual(new Set(['Button', 'theme']));
  });

  test("what the barrel holds itself is not traced: the whole barrel is followed", () => {
    // rc-form's default is the Form the barrel decorates (Form.Field = Field …).
    expect(barrelTargets(barrelOf('@rc-component/form'), new Set(['default']))).toBeUndefined();
    // `export default Collapse` exports a value the barrel holds, next to `export const { Panel } = Collapse`.
    expect(barrelTargets(barrelOf('@rc-component/collapse'), new Set(['default']))).toBeUndefined();
    // The trigger's barrel defines the component in itself.
    expect(barrelTargets(barrelOf('@rc-component/trigger'), new Set(['default']))).toBeUndefined();
    expect(barrelTargets(barrelOf('@rc-component/form'), 'all')).toBeUndefined();
  });

  test('the names a module imports from each package', () => {
    const code = `import * as React from 'react';
      import RcForm, { Field as F, List } from '@rc-component/form';
      import { omit } from "@rc-component/util";
      import * as all from '@rc-component/select';
      import '@rc-component/menu/assets/index.css';
      export { useEvent } from '@rc-component/util';
      import local from './local';`;
    const names = namesImportedFrom(code, (name) => name.startsWith('@rc-component/'));
    expect(names.get('@rc-component/form')).toEqual(new Set(['Field', 'List', 'default']));
    expect(names.get('@rc-component/util')).toEqual(new Set(['omit', 'useEvent']));
    expect(names.get('@rc-component/select')).toBe('all');
    expect(names.get('@rc-component/menu/assets/index.css')).toBe('all');
    expect(names.has('react')).toBe(false);
    // antd's Input reaches rc-form only for its FormProvider.
    expect(namesImportedFrom(source('antd/es/form/context.js'), (name) => name === '@rc-component/form').get('@rc-component/form')).toEqual(new Set(['FormProvider']));
  });
});

describe("antd's isBright without the colour picker's preset panel (issue 17)", () => {
  test('the cut-out module is antd\'s own function and gives the same answers', async () => {
    const presets = source('antd/es/color-picker/components/ColorPresets.js');
    const module = isBrightModule(presets);
    expect(module).toBeDefined();
    expect(module).not.toMatch(/Collapse|useToken/);
    // Written beside antd so that its imports resolve as antd's do.
    const file = path.join(path.dirname(require.resolve('antd/es/color-picker/components/ColorPresets.js')), `isBright-test-${process.pid}.mjs`);
    fs.writeFileSync(file, module!);
    try {
      const cut = (await import(pathToFileURL(file).href)) as { isBright: (value: unknown, background: string) => boolean };
      const original = (await import('antd/es/color-picker/components/ColorPresets.js')) as unknown as typeof cut;
      const { AggregationColor } = (await import('antd/es/color-picker/color.js')) as unknown as { AggregationColor: new (value: string) => unknown };
      const colours = ['#ffffff', '#000000', '#1677ff', '#fadb14', '#52c41a80', 'rgba(255,255,255,0.3)', '#f5222d', '#13c2c2'];
      const answers = colours.flatMap((colour) => ['#ffffff', '#141414'].map((background) => {
        const value = new AggregationColor(colour);
        return [cut.isBright(value, background), original.isBright(value, background)];
      }));
      for (const [mine, antds] of answers) expect(mine).toBe(antds);
      expect(new Set(answers.map(([mine]) => mine))).toEqual(new Set([true, false]));
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  test('a source without the function in the expected form is not cut', () => {
    expect(isBrightModule('export const isBright = (value) => useToken();\n')).toBeUndefined();
    expect(isBrightModule(source('antd/es/color-picker/components/ColorPresets.js').replace("Color as RcColor", 'Color as Other'))).toBeUndefined();
  });
});
