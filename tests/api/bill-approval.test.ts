/**
 * 审批设置 (issue 14, acceptance 3), on SQLite and PostgreSQL: a sales order type set to need
 * approval by a role from 100.00 on. Below the threshold it is audited as before; from it, submit
 * starts 单据审批 and only the role's users may decide — completing the task approves the bill
 * with the comment as its audit remark; the bill's own 驳回 completes the task and returns the bill
 * (1305) with the comment; resubmitting starts a new process; 作废 deletes the running one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { BASES, lines, makeWorld, type World } from '../support/bills.ts';

type Row = Record<string, unknown>;
const SETTING = '/blade-flow/approval-setting';
const WORK = '/blade-flow/work';
const ORDER = BASES.salesOrder;

describe.each(databases())('bills approved through 审批设置 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let approver: Api;
  let approverId: string;
  let w: World;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1, customers: 1 });
    const role = expectOk<Row>(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: '订单审批', roleAlias: 'order_approver', sort: 9 }));
    const ids: string[] = [];
    for (const code of ['salesOrder_audit']) {
      const [button] = expectOk<Row[]>(await admin.get('/blade-system/menu/list', { code_equal: code }));
      ids.push(String(button.id), String(button.parentId));
    }
    expectOk(await admin.call('POST', '/blade-system/role/grant', { query: { roleIds: String(role.id), menuIds: ids.join(',') } }));
    const deptId = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id;
    approverId = String(expectOk<Row>(await admin.post('/blade-user/submit', { account: 'orderboss', password: 'Appr-1234', realName: '销售经理', roleId: String(role.id), deptId })).id);
    approver = await signedIn(server.url, '000000', 'orderboss', 'Appr-1234');

    // The setting's own rules first: a role setting without roles is refused with the field's message.
    const missing = await admin.post(`${SETTING}/submit`, { billType: '0802', enabled: 2, approverType: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('请选择审批角色');
    expectOk(await admin.post(`${SETTING}/submit`, { billType: '0802', enabled: 2, approverType: 1, roleIds: String(role.id), minAmount: '100' }));
    const twice = await admin.post(`${SETTING}/submit`, { billType: '0802', enabled: 2, approverType: 3, userIds: approverId });
    expect(twice.body.msg).toBe('该单据类型的审批设置已存在!');
  });
  afterAll(async () => server?.close());

  const order = async (price: string) =>
    expectOk<Row>(await admin.post(`${ORDER}/submit`, { customerId: w.customers[0], depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: price }]) }));
  const bill = async (id: unknown) => expectOk<Row>(await admin.get(`${ORDER}/detail`, { id }));
  const tasksFor = async (api: Api, list: string, billId: unknown) =>
    (expectOk<{ records: Row[] }>(await api.get(`${WORK}/${list}`, { current: 1, size: 100 })).records).filter((t) => t.businessId === String(billId));
  const instancesOf = async (billId: unknown) =>
    (await server.services.store.find(server.services.m('flow-instance'), '000000', { where: { businessId: String(billId) } })).map((i) => Number(i.instanceState));

  test('below the threshold the order is audited as before: no process', async () => {
    const small = await order('45.20');
    expect(small.billStatus).toBe('1302');
    expect(await instancesOf(small.id)).toEqual([]);
    expect(await tasksFor(approver, 'claim-list', small.id)).toEqual([]);
    expect(expectOk<Row>(await admin.get(`${ORDER}/pass`, { id: small.id, version: small.version, remark: '同意' })).billStatus).toBe('1304');
  });

  test('from the threshold submit starts 单据审批; only the role decides; completing the task approves the order', async () => {
    const big = await order('226.00');
    expect(big.billStatus).toBe('1302');
    expect(await instancesOf(big.id)).toEqual([1]);
    const [task] = await tasksFor(approver, 'claim-list', big.id);
    expect(task).toMatchObject({ processDefinitionKey: 'BillApproval', taskName: '单据审批', businessTable: 'erp_sales_order_head' });
    // The administrator holds the audit button but is not the setting's approver.
    const notYours = await admin.get(`${ORDER}/pass`, { id: big.id, version: big.version, remark: '越权' });
    expect(notYours.status).toBe(403);
    expect(notYours.body.msg).toContain('您不是当前审批人');
    expect((await bill(big.id)).billStatus).toBe('1302');
    // The process page's call: the bill it approves, and which open task the caller may handle.
    const page = expectOk<Row>(await approver.get('/blade-flow/process/instance', { processInstanceId: task.processInstanceId }));
    expect(page).toMatchObject({ businessResource: 'sales-order', businessTitle: '销售订单', businessId: String(big.id), processIsFinished: 'unfinished' });
    expect((page.tasks as Row[]).map((x) => [x.taskName, x.mine])).toEqual([['单据审批', true]]);
    expect(((page.history as Row[])[0] as Row).historyActivityType).toBe('startEvent');

    expectOk(await approver.post(`${WORK}/complete-task`, { taskId: task.taskId, processInstanceId: task.processInstanceId, flag: 'ok', comment: '同意发货' }));
    const approved = await bill(big.id);
    expect(approved).toMatchObject({ billStatus: '1304', auditRemark: '同意发货', auditUser: approverId });
    expect(await instancesOf(big.id)).toEqual([2]);
    const history = expectOk<Row[]>(await admin.get(`${ORDER}/history`, { id: big.id }));
    expect(history.map((h) => [h.action, h.userName])).toEqual([['submit', '管理员'], ['pass', '销售经理']]);
  });

  test("the bill's own 驳回 completes the task; resubmitted it starts again; 作废 deletes the running process", async () => {
    const big = await order('339.00');
    const rejected = expectOk<Row>(await approver.get(`${ORDER}/reject`, { id: big.id, version: big.version, remark: '价格不对' }));
    expect(rejected).toMatchObject({ billStatus: '1305', auditRemark: '价格不对' });
    expect(await instancesOf(big.id)).toEqual([2]);
    const [done] = await tasksFor(approver, 'done-list', big.id);
    expect(done).toMatchObject({ pass: 0, comment: '价格不对' });

    const again = expectOk<Row>(await admin.post(`${ORDER}/submit`, { ...rejected, id: big.id, version: rejected.version, bodyList: lines(w, [{ goods: w.goods[0], qty: '1', taxPrice: '330.00' }]) }));
    expect(again.billStatus).toBe('1302');
    expect((await instancesOf(big.id)).sort()).toEqual([1, 2]);
    expect(await tasksFor(approver, 'claim-list', big.id)).toHaveLength(1);

    expectOk(await admin.post(`${ORDER}/cancel`, { id: big.id, version: again.version, remark: '客户取消' }));
    expect((await bill(big.id)).billStatus).toBe('1307');
    expect((await instancesOf(big.id)).sort()).toEqual([2, 3]);
    expect(await tasksFor(approver, 'claim-list', big.id)).toEqual([]);
  });
});
