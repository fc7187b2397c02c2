/**
 * 系统设置 screens (issue 16 §7), on SQLite and PostgreSQL: 公司信息 is one row per tenant, edited
 * never added, and its name heads printed bills; 支付配置 is one row per channel: an enabled channel
 * needs its app id, merchant id and API key, the key is never read back and a blank one keeps it;
 * 系统参数 and 操作日志 list the system config and the API log.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

type Row = Record<string, unknown>;
const COMPANY = '/blade-system/companyinfo';
const PAYMENT = '/blade-system/paymentconfig';

describe.each(databases())('系统设置 screens ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  test('公司信息: one row, edited not added; its name heads printed bills', async () => {
    const { records } = expectOk<{ records: Row[] }>(await admin.get(`${COMPANY}/list`));
    expect(records).toHaveLength(1);
    const row = records[0];
    // Until the name is filled the heading is the tenant's name.
    expect(expectOk<Row>(await admin.get('/blade-system/printtemplate/forBill', { billType: '0803' })).company).toBe('管理组');
    const badTax = await admin.post(`${COMPANY}/submit`, { ...row, companyName: '华东商贸有限公司', taxNo: '12-34' });
    expect(badTax.status).toBe(400);
    expect(badTax.body.msg).toBe('税号（统一社会信用代码）应为15到18位数字或大写字母');
    expectOk(await admin.post(`${COMPANY}/submit`, { ...row, companyName: '华东商贸有限公司', taxNo: '91310000MA1FL0AB2C', bankAccount: '6222 0210 0100 1234' }));
    expect(expectOk<Row>(await admin.get('/blade-system/printtemplate/forBill', { billType: '0803' })).company).toBe('华东商贸有限公司');
    const added = await admin.post(`${COMPANY}/submit`, { companyName: '第二家' });
    expect(added.status).toBe(400);
    expect(added.body.msg).toBe('公司信息不可新增，请编辑已有信息');
    expect(expectOk<{ records: Row[] }>(await admin.get(`${COMPANY}/list`)).records).toHaveLength(1);
  });

  test('支付配置: three channels; enabling needs app id, merchant id and key; the key is never read back', async () => {
    const { records } = expectOk<{ records: Row[] }>(await admin.get(`${PAYMENT}/list`));
    expect(records.map((r) => r.payChannel).sort()).toEqual(['alipay', 'unionpay', 'wechat']);
    const wechat = records.find((r) => r.payChannel === 'wechat')!;
    expect(wechat).toMatchObject({ enabled: 1, apiKeySet: 1 });
    const refused = await admin.post(`${PAYMENT}/submit`, { id: wechat.id, version: wechat.version, enabled: 2, appId: 'wx1234567890' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('启用支付渠道须填写应用ID、商户号和API密钥');
    expect(refused.body.data.fieldErrors).toEqual({ mchId: '请输入商户号', apiKey: '请输入API密钥' });
    expectOk(await admin.post(`${PAYMENT}/submit`, { id: wechat.id, version: wechat.version, enabled: 2, appId: 'wx1234567890', mchId: '1900000109', apiKey: 'k'.repeat(32), notifyUrl: 'https://shop.example.com/pay/notify' }));
    const read = expectOk<Row>(await admin.get(`${PAYMENT}/detail`, { id: wechat.id }));
    expect(read).toMatchObject({ enabled: 2, appId: 'wx1234567890', mchId: '1900000109', apiKeySet: 2 });
    expect(read.apiKey).toBeUndefined();
    // A blank key keeps the stored one: the channel stays enabled.
    expectOk(await admin.post(`${PAYMENT}/submit`, { id: wechat.id, version: read.version, enabled: 2, appId: 'wx1234567890', mchId: '1900000109', apiKey: '', remark: '公众号支付' }));
    const kept = expectOk<Row>(await admin.get(`${PAYMENT}/detail`, { id: wechat.id }));
    expect(kept).toMatchObject({ remark: '公众号支付', apiKeySet: 2, enabled: 2 });
    const badUrl = await admin.post(`${PAYMENT}/submit`, { id: wechat.id, version: kept.version, notifyUrl: 'ftp://x' });
    expect(badUrl.body.msg).toBe('回调地址应以 http:// 或 https:// 开头');
    expect((await admin.post(`${PAYMENT}/submit`, { payChannel: 'paypal', enabled: 1 })).body.msg).toBe('支付渠道不可新增，请编辑已有渠道');
  });

  test('another tenant reads and writes its own settings rows only', async () => {
    const other = await signedIn(server.url, '100001', 'admin', 'admin');
    const mine = expectOk<{ records: Row[] }>(await admin.get(`${COMPANY}/list`)).records[0];
    const theirs = expectOk<{ records: Row[] }>(await other.get(`${COMPANY}/list`)).records;
    expect(theirs).toHaveLength(1);
    expect(theirs[0].id).not.toBe(mine.id);
    expect(expectOk(await other.get(`${COMPANY}/detail`, { id: mine.id }))).toBeNull();
    expect((await other.post(`${COMPANY}/submit`, { ...mine, companyName: '越权修改' })).status).toBe(400);
    expect(expectOk<Row>(await admin.get(`${COMPANY}/detail`, { id: mine.id })).companyName).not.toBe('越权修改');
    const channel = expectOk<{ records: Row[] }>(await admin.get(`${PAYMENT}/list`)).records[0];
    expect((await other.post(`${PAYMENT}/submit`, { id: channel.id, version: channel.version, remark: '越权' })).status).toBe(400);
    expect(expectOk<{ records: Row[] }>(await other.get(`${PAYMENT}/list`)).records.map((r) => r.id)).not.toContain(channel.id);
  });

  test('系统参数 and 操作日志 are the system config and the API log', async () => {
    const config = expectOk<{ records: Row[] }>(await admin.get('/blade-sys-config/sysconfig/list', { configKey: 'ERP_PRINT_LIMIT_PHONE' })).records;
    expect(config[0]?.configName).toBe('允许打印小票的手机号');
    const menus = expectOk<Row[]>(await admin.get('/blade-system/menu/list', { code_equal: 'operationLog' }));
    expect(menus[0]?.path).toBe('/settings/operationLog');
  });
});
