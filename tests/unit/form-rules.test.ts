import { beforeAll, describe, expect, test } from 'vitest';
import type { ResourceFile } from '../../src/shared/resource.ts';
import { installBrowserGlobals } from '../support/browser-globals.ts';

/**
 * Form rules the browser runs on blur and before saving, for widgets derived from the entity:
 * an array of texts (近三个月主要工作业绩: at least three) becomes a text list checked by its
 * filled items.
 */

let layout: typeof import('../../src/client/renderer/form/layout.ts');
let validation: typeof import('../../src/client/renderer/form/validation.ts');

beforeAll(async () => {
  installBrowserGlobals();
  layout = await import('../../src/client/renderer/form/layout.ts');
  validation = await import('../../src/client/renderer/form/validation.ts');
});

const resource = {
  resource: 'appraisal',
  title: '考核',
  module: 'hr',
  table: { name: 'erp_appraisal' },
  entity: {
    type: 'object',
    properties: {
      works: {
        type: 'array',
        title: '近三个月主要工作业绩',
        minItems: 3,
        maxItems: 5,
        items: { type: 'string', maxLength: 6, errorMessage: { maxLength: '每条工作业绩不能超过6个字符' } },
        errorMessage: { minItems: '近三个月主要工作业绩至少填写三条' },
      },
      files: { type: 'array', title: '附件', items: { type: 'object' } },
    },
    required: ['works'],
    errorMessage: { required: { works: '请填写近三个月主要工作业绩' } },
  },
  api: { base: '/blade-hr/appraisal', endpoints: [] },
} as unknown as ResourceFile;

describe('text lists', () => {
  test('an array of strings is a text list; an array of objects stays an upload', () => {
    const [works, files] = layout.buildFieldSpecs(resource, ['works', 'files'], 'add');
    expect(works.widget).toBe('textList');
    expect(files.widget).toBe('upload');
  });

  test('required, then at least minItems filled items, at most maxItems, each within its length', () => {
    const [spec] = layout.buildFieldSpecs(resource, ['works'], 'add');
    const check = (value: unknown) => validation.checkField(resource.entity, spec, value, {});
    expect(check(undefined)).toBe('请填写近三个月主要工作业绩');
    expect(check(['', '  '])).toBe('请填写近三个月主要工作业绩');
    expect(check(['开发客户', '', '培训'])).toBe('近三个月主要工作业绩至少填写三条');
    expect(check(['开发客户', '降库存', '培训'])).toBeUndefined();
    expect(check(['一', '二', '三', '四', '五', '六'])).toBe('近三个月主要工作业绩最多填写5条');
    expect(check(['开发客户', '降低库存周转天数', '培训'])).toBe('每条工作业绩不能超过6个字符');
  });
});
