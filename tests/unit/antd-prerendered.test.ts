import fs from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, test, vi } from 'vitest';
import { PRERENDERED_MODULE, prerenderedComponents, stubStyleFunctions } from '../../generators/antdPrerendered.ts';
import { renderAntdStyles } from '../../generators/antdStyles.ts';

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
