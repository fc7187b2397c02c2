import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function lint(dir?: string) {
  const args = [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'generators/lint.ts'), ...(dir ? [dir] : [])];
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  return { status: result.status, out: result.stdout + result.stderr };
}

function lineOf(file: string, needle: string): number {
  return fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
}

describe('schema lint', () => {
  it('passes on the committed schemas', () => {
    const { status, out } = lint();
    expect(out).toMatch(/0 problems/);
    expect(status).toBe(0);
  }, 60_000);

  it('fails on a broken copy with file:line for each problem', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-'));
    fs.cpSync(path.join(root, 'schemas'), dir, { recursive: true });
    const customer = path.join(dir, 'base/customer.json');
    const data = JSON.parse(fs.readFileSync(customer, 'utf8'));
    // an unknown picker target and a dictionary that is not seeded
    data.entity.properties.staffId['x-ref'] = 'no-such-resource';
    data.entity.properties.isDefaultId['x-dict'] = 'no_such_dict';
    fs.writeFileSync(customer, JSON.stringify(data, null, 2));
    const { status, out } = lint(dir);
    expect(status).toBe(1);
    const refLine = lineOf(customer, '"no-such-resource"');
    const dictLine = lineOf(customer, '"no_such_dict"');
    expect(out).toContain(`customer.json:${refLine}: 引用的资源 no-such-resource 不存在`);
    expect(out).toContain(`customer.json:${dictLine}: 字典 no_such_dict 未在 schemas/dicts 中定义`);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('checks an action calling another resource: its endpoint and prompt fields belong to it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-'));
    fs.cpSync(path.join(root, 'schemas'), dir, { recursive: true });
    const profile = path.join(dir, 'hr/staff-profile.json');
    const data = JSON.parse(fs.readFileSync(profile, 'utf8'));
    const [formal, rank] = data.card.actions;
    expect(formal.resource).toBe('formal-application');
    formal.resource = 'staff'; // staff has a submit, but no becomeFormalTime
    rank.endpoint = 'no-such-call';
    fs.writeFileSync(profile, JSON.stringify(data, null, 2));
    // A picker calling a path no resource serves (a typo).
    const userFile = path.join(dir, 'system/user.json');
    fs.writeFileSync(userFile, fs.readFileSync(userFile, 'utf8').replace('"endpoint": "/blade-system/depot/list"', '"endpoint": "/blade-system/depot/lsit"'));
    const { status, out } = lint(dir);
    expect(out).toContain(`user.json:${lineOf(userFile, '/blade-system/depot/lsit')}: 接口 /blade-system/depot/lsit 不是任何资源的接口`);
    expect(status).toBe(1);
    expect(out).toMatch(/staff-profile\.json:\d+: 操作 applyFormal 的提示字段 becomeFormalTime 不在资源 staff 中/);
    expect(out).toMatch(/staff-profile\.json:\d+: 操作 applyRank 的接口 no-such-call 不在资源 rank-application 的 api\.endpoints 中/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('checks a report: chart fields and endpoint, totals endpoint, drill-down menu and fields', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-'));
    fs.cpSync(path.join(root, 'schemas'), dir, { recursive: true });
    const file = path.join(dir, 'analysis/sales-analysis.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    data.list.chart.values = ['totalAmt', 'noSuchFigure'];
    data.list.chart.endpoint = 'noSuchChartCall';
    data.list.summaryEndpoint = 'noSuchTotals';
    const drilled = data.list.columns.find((c: { drill?: unknown }) => c.drill);
    drilled.drill.menu = 'noSuchMenu';
    drilled.drill.label = 'noSuchName';
    fs.writeFileSync(file, JSON.stringify(data, null, 2));
    const { status, out } = lint(dir);
    expect(status).toBe(1);
    expect(out).toMatch(/sales-analysis\.json:\d+: 图表字段 noSuchFigure 不在实体中/);
    expect(out).toMatch(/sales-analysis\.json:\d+: 图表接口 noSuchChartCall 不在 api\.endpoints 中/);
    expect(out).toMatch(/sales-analysis\.json:\d+: 合计接口 noSuchTotals 不在 api\.endpoints 中/);
    expect(out).toMatch(/sales-analysis\.json:\d+: 菜单编码 noSuchMenu 不存在/);
    expect(out).toMatch(/sales-analysis\.json:\d+: 钻取字段 noSuchName 不在实体中/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('wants an English placeholder beside every Chinese one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-'));
    fs.cpSync(path.join(root, 'schemas'), dir, { recursive: true });
    const dept = path.join(dir, 'system/dept.json');
    const text = fs.readFileSync(dept, 'utf8');
    expect(text).toContain('"placeholderEn": "Blank for a top-level department"');
    fs.writeFileSync(dept, text.replace(', "placeholderEn": "Blank for a top-level department"', ''));
    const { status, out } = lint(dir);
    expect(status).toBe(1);
    expect(out).toContain(`dept.json:${lineOf(dept, '不选则为顶级部门')}: 字段 parentId 的 placeholder 没有英文 placeholderEn`);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
