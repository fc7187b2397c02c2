import fs from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, test, vi } from 'vitest';
import { deferredSheetId, PRERENDERED_MODULE, prerenderedComponents, stubStyleFunctions } from '../../generators/antdPrerendered.ts';
import { renderAntdStyles, renderAntdStyleSheets } from '../../generators/antdStyles.ts';

const require = createRequire(import.meta.url);
const antdStyleModule = (path: string) => fs.readFileSync(require.resolve(`antd/es/${path}`), 'utf8');

describe('antd style functions left out for the components the build renders (issue 17)', () => {
  test('the built stylesheet names the components it holds', async () => {
    const known = prerenderedComponents(await renderAntdStyles(false));
    for (const key of ['Button-Button', 'Menu-Menu', 'Input-Shared', 'Input-Component', 'Tabs-Tabs', 'Pagination-Pagination']) {
      expect(known, key).toContain(key);
    }
    // antd's reset styles are not a component; the date picker is not rendered by the build.
    expect(known).not.toContain('Shared');
    expect([...known].some((key) => key.startsWith('DatePicker'))).toBe(false);
  }, 30_000);

  test("the dialogs' components have sheets of their own, named in the frame's map, each imported by the module that asks for its styles", async () => {
    const { frame, deferred } = await renderAntdStyleSheets(false);
    const modules: Record<string, string> = {
      'Modal-Modal': 'modal/style/index.js',
      'InputNumber-InputNumber': 'input-number/style/index.js',
      'Input-TextArea': 'input/style/textarea.js',
      'Radio-Radio': 'radio/style/index.js',
    };
    expect([...deferred.keys()].sort()).toEqual(Object.keys(modules).sort());
    const known = prerenderedComponents(frame);
    for (const [key, file] of Object.entries(modules)) {
      expect(known, key).toContain(key);
      // The rules are in the component's sheet, not the frame's.
      const rule = key === 'Input-TextArea' ? '.ant-input-textarea' : `.${{ 'Modal-Modal': 'ant-modal', 'InputNumber-InputNumber': 'ant-input-number', 'Radio-Radio': 'ant-radio' }[key]}`;
      expect(deferred.get(key), key).toContain(rule);
      const code = antdStyleModule(file);
      expect(stubStyleFunctions(code, parseAst(code), known, new Set(deferred.keys())), key).toContain(`import '${deferredSheetId(key)}';`);
    }
    expect(frame).not.toContain('.ant-input-number{');
    expect(frame).not.toMatch(/\.ant-modal-(?:wrap|content)\{/);
    // The frame's own components stay in its sheet.
    expect(frame).toContain('.ant-btn');
    expect(frame).toContain('.ant-menu');
  }, 30_000);

  test("a known component's style function becomes the stub; its token function stays", () => {
    const code = antdStyleModule('button/style/index.js');
    const out = stubStyleFunctions(code, parseAst(code), new Set(['Button-Button']));
    expect(out).toContain('__prerenderedStyle("Button-Button")');
    expect(out).toContain("from 'virtual:antd-prerendered'");
    // The call keeps its other arguments (the component token, for the CSS variables).
    expect(out).toMatch(/genStyleHooks\('Button', __prerenderedStyle\("Button-Button"\), prepareComponentToken/);
    // The style function itself is gone from the call (nothing references genSharedButtonStyle now).
    expect(code).toMatch(/genSharedButtonStyle\(buttonToken\)/);
    expect(out).not.toMatch(/genSharedButtonStyle\(buttonToken\)/);
  });

  test('a sub-component is known by both its names; unknown components are left alone', () => {
    const code = antdStyleModule('input/style/index.js');
    const out = stubStyleFunctions(code, parseAst(code), new Set(['Input-Shared']))!;
    expect(out).toContain('__prerenderedStyle("Input-Shared")');
    expect(out).not.toContain('__prerenderedStyle("Input-Component")');
    expect(out).toMatch(/genStyleHooks\(\['Input', 'Component'\], token =>/);
    const picker = antdStyleModule('date-picker/style/index.js');
    expect(stubStyleFunctions(picker, parseAst(picker), new Set(['Input-Shared', 'Button-Button']))).toBeUndefined();
  });

  test('the stub, if ever called, reports the miss as a page error and draws nothing', async () => {
    const reportError = vi.fn();
    vi.stubGlobal('reportError', reportError);
    try {
      const { prerenderedStyle } = (await import(`data:text/javascript,${encodeURIComponent(PRERENDERED_MODULE)}`)) as {
        prerenderedStyle(key: string): () => unknown[];
      };
      expect(prerenderedStyle('Menu-Menu')()).toEqual([]);
      expect(reportError).toHaveBeenCalledTimes(1);
      expect(String(reportError.mock.calls[0]![0])).toContain('antd style not in the built CSS: Menu-Menu');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
