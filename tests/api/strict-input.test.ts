/**
 * Issue 16 §2 (strict input), on SQLite and PostgreSQL: a field of the wrong JSON type is refused
 * with the field's message and nothing is written (it used to be stored as text: a list joined into
 * "a,b", true as "true", 5 as "5"); the lossless wire forms a BladeX client sends still pass (a
 * decimal as a JSON number, an id as a JSON integer, an integer as its digits, a multi-value field
 * as a list). A reference (x-ref) to a row that does not exist, was deleted or belongs to another
 * tenant is refused with the field's message — on a record, a bill head and a bill line — while a
 * save that leaves an old reference as it was still passes; so is a dictionary key the dictionary
 * does not have. The form's helper checks (spec 000 §5: mobile, bank account …) run on the server too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, lines, makeGoods, makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';
import { entityMessages, type CompiledValidator } from '../../src/shared/entityCheck.ts';
import type { EntitySchema } from '../../src/shared/resource.ts';

type Row = Record<string, unknown>;

describe.each(databases())('strict input ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let other: Api;
  let w: World;
  let natureId: string;
  let levelId: string;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    other = await signedIn(server.url, '100001');
    w = await makeWorld(admin, { goods: 1 });
    const natures = expectOk<Row[] | { records: Row[] }>(await admin.get('/blade-base/customernature/list', { current: 1, size: 5 }));
    natureId = String((Array.isArray(natures) ? natures : natures.records)[0].id);
    const levels = expectOk<Row[] | { records: Row[] }>(await admin.get('/blade-base/commcustomerlevel/list', { current: 1, size: 5 }));
    levelId = String((Array.isArray(levels) ? levels : levels.records)[0].id);
  });
  afterAll(async () => server?.close());

  const customers = async () => expectOk<{ total: number }>(await admin.get('/blade-base/customer/list', { current: 1, size: 1 })).total;
  const customer = (extra: Row) => ({ bartererName: `严格${uniqueToken().slice(-8)}`, natureId, levelId, ...extra });

  test('a value of the wrong JSON type is refused naming the field; nothing is written', async () => {
    const before = await customers();
    const cases: [string, unknown, RegExp][] = [
      ['bartererName', ['甲', '乙'], /^客户名称/],
      ['bartererName', true, /^客户名称/],
      ['bartererName', 5, /^客户名称/],
      ['bartererName', { text: '甲' }, /^客户名称/],
      ['periodDays', 'abc', /^账期天数/],
      ['periodDays', true, /^账期天数/],
      ['periodDays', [3], /^账期天数/],
      ['periodDays', 1.5, /^账期天数/],
    ];
    for (const [field, value, message] of cases) {
      const reply = await admin.post('/blade-base/customer/submit', customer({ [field]: value }));
      expect(reply.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(reply.body.data?.fieldErrors?.[field], `${field}=${JSON.stringify(value)}`).toMatch(message);
    }
    expect(await customers()).toBe(before);
  });

  test('the lossless wire forms pass: a decimal as a number, an integer as its digits, a multi-value field as a list', async () => {
    const saved = expectOk<Row>(await admin.post('/blade-base/customer/submit', customer({ periodDays: '30', taxRate: 6.5 })));
    const detail = expectOk<Row>(await admin.get('/blade-base/customer/detail', { id: saved.id }));
    expect(detail.periodDays).toBe(30);
    expect(Number(detail.taxRate)).toBe(6.5);
    // 角色: a multi-value reference sent as a list is stored comma-joined, as BladeX does.
    const roles = expectOk<Row[]>(await admin.get('/blade-system/role/list', {}));
    const ids = (Array.isArray(roles) ? roles : (roles as { records: Row[] }).records).slice(0, 2).map((r) => String(r.id));
    expect(ids.length).toBe(2);
    const deptId = String(expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id);
    const account = `strict${uniqueToken().slice(-6)}`;
    const user = expectOk<Row>(await admin.post('/blade-user/submit', { account, password: 'Passw0rd!', realName: '严格', roleId: ids, deptId: [deptId] }));
    const stored = expectOk<Row>(await admin.get('/blade-user/detail', { id: user.id }));
    expect(stored.roleId).toBe(ids.join(','));
    expect(stored.deptId).toBe(deptId);
    // A list in a single-value text field is refused, not joined.
    const listInText = await admin.post('/blade-user/submit', { account: [`a${account}`, 'b'], password: 'Passw0rd!', realName: '严格', roleId: ids[0], deptId });
    expect(listInText.status).toBe(400);
    expect(listInText.body.data.fieldErrors.account).toBeTruthy();
  });

  test('a reference to a row that does not exist, was deleted or is another tenant’s is refused with the field’s message', async () => {
    const before = await customers();
    const missing = await admin.post('/blade-base/customer/submit', customer({ natureId: '1' }));
    expect(missing.status).toBe(400);
    expect(missing.body.data.fieldErrors.natureId).toMatch(/不存在或已删除$/);

    const theirs = expectOk<Row>(await other.post('/blade-base/customernature/submit', { natureName: `对方${uniqueToken().slice(-6)}`, parentId: '0' }));
    const crossTenant = await admin.post('/blade-base/customer/submit', customer({ natureId: theirs.id }));
    expect(crossTenant.status).toBe(400);
    expect(crossTenant.body.data.fieldErrors.natureId).toMatch(/不存在或已删除$/);

    const mine = expectOk<Row>(await admin.post('/blade-base/customernature/submit', { natureName: `将删${uniqueToken().slice(-6)}`, parentId: '0' }));
    const kept = expectOk<Row>(await admin.post('/blade-base/customer/submit', customer({ natureId: mine.id })));
    expect(await customers()).toBe(before + 1);
    expectOk(await admin.post('/blade-base/customernature/remove', undefined, { ids: String(mine.id) }));
    const deleted = await admin.post('/blade-base/customer/submit', customer({ natureId: mine.id }));
    expect(deleted.status).toBe(400);
    expect(deleted.body.data.fieldErrors.natureId).toMatch(/不存在或已删除$/);
    expect(await customers()).toBe(before + 1);

    // An edit that leaves the (now deleted) category as it was still saves.
    const stored = expectOk<Row>(await admin.get('/blade-base/customer/detail', { id: kept.id }));
    expectOk(await admin.post('/blade-base/customer/submit', { ...stored, remark: '只改备注' }));
  });

  test('the form’s helper checks run on the server too: a bank account’s length follows its account type', async () => {
    const bank = (extra: Row) => ({ bankCode: `B${uniqueToken().slice(-8)}`, bankName: '严格银行', bankTypeId: '2503', ...extra });
    // 对公账户 (2503): 20 digits; the schema's pattern alone would take 8.
    const short = await admin.post('/blade-base/bank/submit', bank({ bankAccount: '12345678' }));
    expect(short.status).toBe(400);
    expect(short.body.data.fieldErrors.bankAccount).toBe('银行账号应为20位数字');
    expectOk(await admin.post('/blade-base/bank/submit', bank({ bankAccount: '12345678901234567890' })));
    // An account type outside its dictionary is refused as a value outside the field's choices.
    const unknownType = await admin.post('/blade-base/bank/submit', bank({ bankTypeId: '9999', bankAccount: '12345678' }));
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.data.fieldErrors.bankTypeId).toBe('账户类型的取值不在允许范围内');
  });

  test('a bill head and a bill line naming unknown rows are refused; nothing is written', async () => {
    const count = async () => expectOk<{ total: number }>(await admin.get(`${BASES.salesOrder}/list`, { current: 1, size: 1 })).total;
    const before = await count();
    const head = { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '10' }]) };
    const badHead = await admin.post(`${BASES.salesOrder}/submit`, { ...head, customerId: '999999999' });
    expect(badHead.status).toBe(400);
    expect(Object.values(badHead.body.data.fieldErrors as Row).join()).toMatch(/不存在或已删除/);
    const goods = await makeGoods(admin, w.unitId, '将删商品');
    expectOk(await admin.post('/blade-base/comminfo/remove', undefined, { ids: goods }));
    const badLine = await admin.post(`${BASES.salesOrder}/submit`, { ...head, bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '10' }, { goods, qty: '1', taxPrice: '10' }]) });
    expect(badLine.status).toBe(400);
    expect(badLine.body.msg).toMatch(/^第2条：.*不存在或已删除/);
    expect(badLine.body.data.lineErrors[0]).toMatchObject({ index: 1, field: 'commInfoId' });
    expect(await count()).toBe(before);
    expectOk(await admin.post(`${BASES.salesOrder}/submit`, head));
  });

  // Issue 16 §6: the browser checks a field with the module the server serves, which holds the
  // compiled validator the server itself runs on a save; the same value gets the same message.
  test('the browser gets the validator the server runs (/validators/<resource>.js)', async () => {
    const served = await fetch(`${server.url}/validators/customer.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(served.headers.get('content-encoding')).toBe('gzip');
    const code = await served.text();
    expect(code).not.toMatch(/\brequire\(|^\s*import\s/m);
    const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { default: CompiledValidator };
    const entity = expectOk<{ entity: EntitySchema }>(await admin.get('/erp-meta/resource', { name: 'customer' })).entity;
    const cases: Row[] = [{ bartererName: '长'.repeat(300) }, { periodDays: 'abc' }, { periodDays: 1.5 }, { bartererName: '' }];
    for (const extra of cases) {
      const body = customer(extra);
      const reply = await admin.post('/blade-base/customer/submit', body);
      expect(reply.status, JSON.stringify(extra).slice(0, 40)).toBe(400);
      const browser = Object.fromEntries(entityMessages(module.default, entity, body));
      expect(browser, JSON.stringify(extra).slice(0, 40)).toEqual(reply.body.data.fieldErrors);
    }
    expect(module.default(customer({}))).toBe(true);
    expect((await fetch(`${server.url}/validators/no-such-resource.js`)).status).toBe(404);
  });
});
