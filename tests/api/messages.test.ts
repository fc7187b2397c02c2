/**
 * 消息中心 on SQLite and PostgreSQL: message templates (CRUD, changeStatus, a disabled template
 * sends nothing); tasks (send → the assignee's count, list and a task message; only the assignee
 * finishes); a user's own messages (selectMessageInfoPage, unreadCount, updateMsgInfoReadStatus
 * touch the caller's rows only; administration needs message_manage); approval messages (a
 * submitted purchase order tells every holder of its approve button, once; approving or
 * rejecting tells the submitter; finance approval levels tell each level's approvers);
 * collaboration messages (send, per-receiver read status); another tenant sees none of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { BASES, lines, makeWorld, type World } from '../support/bills.ts';
import { uniqueToken } from '../support/resources.ts';

const INFO = '/blade-desk/messageinfo';
const TEMPLATE = '/blade-desk/messagetemplate';
const TASK = '/blade-desk/usertask';
const SYNERGISM = '/blade-desk/msgsynergism';

type Row = Record<string, any>;

describe.each(databases())('message centre ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  let w: World;
  const users: Record<string, { id: string; api: Api }> = {};

  /** A user whose only role holds the given buttons (and their menus). */
  async function userWith(account: string, realName: string, buttons: string[]): Promise<{ id: string; api: Api }> {
    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: `消息${account}`, roleAlias: account, sort: 9 }));
    const ids: string[] = [];
    for (const code of buttons) {
      const [button] = expectOk<Row[]>(await admin.get('/blade-system/menu/list', { code_equal: code }));
      ids.push(String(button.id), String(button.parentId));
    }
    if (ids.length) expectOk(await admin.call('POST', '/blade-system/role/grant', { query: { roleIds: String(role.id), menuIds: [...new Set(ids)].join(',') } }));
    const deptId = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id;
    const user = expectOk(await admin.post('/blade-user/submit', { account, password: 'Msg-12345', realName, roleId: String(role.id), deptId }));
    return { id: String(user.id), api: await signedIn(server.url, '000000', account, 'Msg-12345') };
  }

  const mine = async (api: Api, query: Record<string, unknown> = {}) => expectOk(await api.get(`${INFO}/selectMessageInfoPage`, { current: 1, size: 100, ...query }));
  const unread = async (api: Api) => expectOk(await api.get(`${INFO}/unreadCount`)).count as number;
  const about = async (api: Api, billId: string) => (await mine(api, { billId_equal: billId })).records as Row[];

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
    w = await makeWorld(admin, { goods: 1 });
    users.b = await userWith('msgb', '乙用户', ['purchaseOrder_add', 'purchaseOrder_submit']);
    users.c = await userWith('msgc', '丙审核', ['purchaseOrder_audit']);
  });
  afterAll(async () => server?.close());

  test('templates: seeded per tenant, CRUD, changeStatus; non-administrators may not manage them', async () => {
    const seeded = expectOk(await admin.get(`${TEMPLATE}/list`, { size: 50 })).records.map((r: Row) => r.code);
    expect(seeded).toEqual(expect.arrayContaining(['bill_waiting', 'bill_approved', 'bill_rejected', 'task_assigned']));
    const code = `t_${uniqueToken()}`;
    const saved = expectOk(await admin.post(`${TEMPLATE}/submit`, { code, name: '测试模板', title: '标题{x}', content: '内容{x}' }));
    expect(saved).toMatchObject({ code, status: 1, version: 1 });
    const edited = expectOk(await admin.post(`${TEMPLATE}/submit`, { ...saved, name: '改名' }));
    expect(edited).toMatchObject({ name: '改名', version: 2 });
    const dup = await admin.post(`${TEMPLATE}/submit`, { code, name: '重复', title: 't', content: 'c' });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('模板编号已存在');

    expectOk(await admin.call('POST', `${TEMPLATE}/changeStatus`, { query: { id: saved.id, status: 2 } }));
    expect(expectOk(await admin.get(`${TEMPLATE}/detail`, { id: saved.id })).status).toBe(2);
    expect(expectOk(await admin.get(`${TEMPLATE}/list`, { code, status_equal: 2 })).records.map((r: Row) => r.id)).toEqual([saved.id]);
    expectOk(await admin.post(`${TEMPLATE}/changeStatus`, { ids: String(saved.id), status: '1' }));
    expect(expectOk(await admin.get(`${TEMPLATE}/detail`, { id: saved.id })).status).toBe(1);
    const bad = await admin.call('POST', `${TEMPLATE}/changeStatus`, { query: { id: saved.id, status: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('状态只能为');

    expect((await users.b.api.post(`${TEMPLATE}/submit`, { code: `${code}b`, name: 'x', title: 't', content: 'c' })).status).toBe(403);
    expect((await users.b.api.call('POST', `${TEMPLATE}/changeStatus`, { query: { id: saved.id, status: 2 } })).status).toBe(403);

    expectOk(await admin.call('POST', `${TEMPLATE}/remove`, { query: { ids: saved.id } }));
    expect(expectOk(await admin.get(`${TEMPLATE}/detail`, { id: saved.id }))).toBeFalsy();
  });

  test('tasks: sent to B, counted and listed for B with a task message; only B finishes it', async () => {
    const b = users.b;
    const before = expectOk(await b.api.get(`${TASK}/count`));
    const unreadBefore = await unread(b.api);
    const [task] = expectOk<Row[]>(await admin.post(`${TASK}/send`, { userIds: [b.id], title: '核对库存', content: '请盘点一号仓', dueDate: '2030-01-31' }));
    expect(task).toMatchObject({ userId: b.id, title: '核对库存', taskStatus: 1, dueDate: '2030-01-31', userName: '乙用户', sendUserName: '管理员' });

    expect(expectOk(await b.api.get(`${TASK}/count`))).toMatchObject({ count: before.count + 1, total: before.total + 1 });
    const listed = expectOk(await b.api.get(`${TASK}/list`, { size: 50 })).records as Row[];
    expect(listed.map((t) => t.id)).toContain(task.id);
    expect(listed.every((t) => t.userId === b.id)).toBe(true);
    // A's own list is A's tasks; as an administrator A may name B's.
    expect(expectOk(await admin.get(`${TASK}/list`, { size: 50 })).records.map((t: Row) => t.id)).not.toContain(task.id);
    expect(expectOk(await admin.get(`${TASK}/list`, { userId: b.id, size: 50 })).records.map((t: Row) => t.id)).toContain(task.id);
    // B may not read A's tasks by naming A.
    const adminTask = expectOk<Row[]>(await admin.post(`${TASK}/send`, { userId: expectOk(await admin.get('/blade-user/info')).id, title: '管理员自己的任务' }))[0];
    expect(expectOk(await b.api.get(`${TASK}/list`, { userId: adminTask.userId, size: 50 })).records.map((t: Row) => t.id)).not.toContain(adminTask.id);

    const [message] = await about(b.api, task.id);
    expect(message).toMatchObject({ userId: b.id, msgType: 3, readStatus: 1, resource: 'user-task', title: '新任务：核对库存', sendUserName: '管理员' });
    expect(message.content).toContain('截止日期 2030-01-31');
    expect(await unread(b.api)).toBe(unreadBefore + 1);

    const byA = await admin.call('POST', `${TASK}/finish`, { query: { id: task.id } });
    expect(byA.status).toBe(403);
    expect(byA.body.msg).toBe('只能完成分配给自己的任务');
    const done = expectOk(await b.api.call('POST', `${TASK}/finish`, { query: { id: task.id } }));
    expect(done).toMatchObject({ taskStatus: 2, finishTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    const again = await b.api.call('POST', `${TASK}/finish`, { query: { id: task.id } });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('只有待处理的任务可以完成');
    expect(expectOk(await b.api.get(`${TASK}/count`))).toMatchObject({ count: before.count, finished: before.finished + 1 });

    // Bad sends: nobody, a stranger, no title. Nothing is written.
    expect((await admin.post(`${TASK}/send`, { title: 'x' })).body.msg).toBe('请选择接收人');
    expect((await admin.post(`${TASK}/send`, { userIds: 'nobody', title: 'x' })).body.msg).toBe('接收人不存在');
    const untitled = await admin.post(`${TASK}/send`, { userIds: b.id });
    expect(untitled.status).toBe(400);
    expect(untitled.body.data.fieldErrors).toHaveProperty('title');
    expect(expectOk(await b.api.get(`${TASK}/count`)).total).toBe(before.total + 1);

    // A task B neither owns nor sent may not be removed by B; B's own may.
    expect((await b.api.call('POST', `${TASK}/remove`, { query: { ids: adminTask.id } })).status).toBe(403);
  });

  test('own messages only: page, unread count and read status touch the caller’s rows; administration needs message_manage', async () => {
    const b = users.b;
    const adminId = String(expectOk(await admin.get('/blade-user/info')).id);
    const toB1 = expectOk(await admin.post(`${INFO}/submit`, { userId: b.id, title: '给乙的一', content: '内容一', msgType: 1 }));
    const toB2 = expectOk(await admin.post(`${INFO}/submit`, { userId: b.id, title: '给乙的二', msgType: 4 }));
    const toA = expectOk(await admin.post(`${INFO}/submit`, { userId: adminId, title: '给管理员的' }));
    expect(toB1).toMatchObject({ readStatus: 1, msgType: 1 });
    expect(toA.msgType).toBe(1);

    const page = await mine(b.api);
    const ids = page.records.map((r: Row) => r.id);
    expect(ids).toEqual(expect.arrayContaining([toB1.id, toB2.id]));
    expect(ids).not.toContain(toA.id);
    expect(page.records.every((r: Row) => r.userId === b.id)).toBe(true);
    // Newest first.
    expect(ids.indexOf(toB2.id)).toBeLessThan(ids.indexOf(toB1.id));
    expect((await mine(b.api, { msgType: 4 })).records.map((r: Row) => r.id)).toEqual([toB2.id]);

    // Detail: own, or any for an administrator of messages; another's answers empty.
    expect(expectOk(await b.api.get(`${INFO}/detail`, { id: toB1.id }))).toMatchObject({ id: toB1.id, sendUserName: '管理员', userName: '乙用户' });
    expect(expectOk(await b.api.get(`${INFO}/detail`, { id: toA.id }))).toBeFalsy();
    expect(expectOk(await admin.get(`${INFO}/detail`, { id: toB1.id })).id).toBe(toB1.id);
    // Administration: B holds no message_manage.
    expect((await b.api.get(`${INFO}/list`)).status).toBe(403);
    expect((await b.api.post(`${INFO}/submit`, { userId: b.id, title: 'x' })).status).toBe(403);
    expect((await b.api.call('POST', `${INFO}/remove`, { query: { ids: toA.id } })).status).toBe(403);
    expect(expectOk(await admin.get(`${INFO}/list`, { userId_equal: b.id, size: 100 })).records.map((r: Row) => r.id)).toContain(toB1.id);

    const unreadB = await unread(b.api);
    const unreadA = await unread(admin);
    // B names its own message and A's: only its own is marked.
    expect(expectOk(await b.api.call('POST', `${INFO}/updateMsgInfoReadStatus`, { query: { ids: `${toB1.id},${toA.id}` } }))).toEqual({ count: 1 });
    expect(await unread(b.api)).toBe(unreadB - 1);
    expect(await unread(admin)).toBe(unreadA);
    expect(expectOk(await admin.get(`${INFO}/detail`, { id: toA.id })).readStatus).toBe(1);
    const read = expectOk(await b.api.get(`${INFO}/detail`, { id: toB1.id }));
    expect(read).toMatchObject({ readStatus: 2, readTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    expect((await mine(b.api, { readStatus: 2 })).records.map((r: Row) => r.id)).toContain(toB1.id);
    expect((await mine(b.api, { readStatus: 1 })).records.map((r: Row) => r.id)).not.toContain(toB1.id);
    // Marking again changes nothing; nothing named is refused; all=1 marks every one of B's, none of A's.
    expect(expectOk(await b.api.call('POST', `${INFO}/updateMsgInfoReadStatus`, { query: { ids: toB1.id } }))).toEqual({ count: 0 });
    expect((await b.api.call('POST', `${INFO}/updateMsgInfoReadStatus`)).status).toBe(400);
    expect(expectOk(await b.api.post(`${INFO}/updateMsgInfoReadStatus`, { all: 1 })).count).toBe(unreadB - 1);
    expect(await unread(b.api)).toBe(0);
    expect(await unread(admin)).toBe(unreadA);
  });

  test('approvals: a submitted purchase order tells every approver once; approving or rejecting tells the submitter', async () => {
    const { b, c } = users;
    const body = () => ({ supplierId: w.supplierId, depotId: w.depots[0], bodyList: lines(w, [{ goods: w.goods[0], qty: '2', purchasePrice: '5.00' }]) });
    const order = expectOk(await b.api.post(`${BASES.purchaseOrder}/submit`, body()));
    expect(order.billStatus).toBe('1302');
    const link = { resource: 'purchase-order', billId: order.id, billNo: order.billNo, billType: order.billType, msgType: 2, readStatus: 1 };
    // The administrator and C hold 审核通过; B does not.
    for (const api of [admin, c.api]) {
      const got = await about(api, order.id);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ ...link, title: `待审核：采购订单 ${order.billNo}`, sendUserName: '乙用户' });
      expect(got[0].content).toContain('等待您审核通过');
    }
    expect(await about(b.api, order.id)).toEqual([]);

    // Approved through the 待审单据 queue: B (the submitter) is told, once; nobody else is told again.
    expectOk(await admin.get('/blade-desk/pendingbill/pass', { resource: 'purchase-order', id: order.id, remark: '同意' }));
    const told = await about(b.api, order.id);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ ...link, title: `审核通过：采购订单 ${order.billNo}`, sendUserName: '管理员' });
    expect(told[0].content).toContain('同意');
    expect(await about(c.api, order.id)).toHaveLength(1);

    // Rejected by C on the bill page, after a resubmission: B hears of it with the remark.
    const second = expectOk(await b.api.post(`${BASES.purchaseOrder}/submit`, body()));
    expect(await about(c.api, second.id)).toHaveLength(1);
    expectOk(await c.api.get(`${BASES.purchaseOrder}/reject`, { id: second.id, version: second.version, remark: '单价偏高' }));
    const rejected = await about(b.api, second.id);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ title: `已驳回：采购订单 ${second.billNo}`, sendUserName: '丙审核' });
    expect(rejected[0].content).toContain('单价偏高');
    // Submitted again, it waits again: a new message to each approver.
    const third = expectOk(await b.api.get(`${BASES.purchaseOrder}/detail`, { id: second.id }));
    expectOk(await b.api.post(`${BASES.purchaseOrder}/submit`, third));
    expect(await about(c.api, second.id)).toHaveLength(2);

    // A draft tells nobody.
    const draft = expectOk(await b.api.post(`${BASES.purchaseOrder}/draft`, body()));
    expect(await about(admin, draft.id)).toEqual([]);
  });

  test('approval levels: each level’s approvers are told when the bill reaches it; a disabled template sends nothing', async () => {
    const boss = await userWith('msgboss', '老板', ['prepayment_bossAudit']);
    const cashier = await userWith('msgcash', '出纳', ['prepayment_cashierAudit']);
    const methods = expectOk(await admin.get('/blade-base/settlement/retail'));
    const cash = String(methods.find((m: Row) => m.settlementName === '现金').id);
    const bill = expectOk(await admin.post('/blade-finance/prepayment/submit', { bartererId: w.customers[0], settlementId: cash, precpAmt: '50' }));
    expect((await about(boss.api, bill.id)).map((m) => m.content)).toEqual([expect.stringContaining('等待您老板审批')]);
    expect(await about(cashier.api, bill.id)).toEqual([]);
    expectOk(await boss.api.post('/blade-finance/prepayment/bossAudit', { id: bill.id, version: bill.version, remark: '可以' }));
    const waiting = await about(cashier.api, bill.id);
    expect(waiting).toHaveLength(1);
    expect(waiting[0].content).toContain('老板审批了');
    expect(waiting[0].content).toContain('等待您出纳审批');
    expect((await about(admin, bill.id)).map((m) => m.title)).toContain(`老板审批：预收款单 ${bill.billNo}`);

    // bill_approved disabled: the cashier's approval tells the submitter nothing.
    const template = expectOk(await admin.get(`${TEMPLATE}/list`, { code_equal: 'bill_approved' })).records[0];
    expectOk(await admin.call('POST', `${TEMPLATE}/changeStatus`, { query: { id: template.id, status: 2 } }));
    const before = (await about(admin, bill.id)).length;
    const afterBoss = expectOk(await admin.get('/blade-finance/prepayment/detail', { id: bill.id }));
    expectOk(await cashier.api.post('/blade-finance/prepayment/cashierAudit', { id: bill.id, version: afterBoss.version, remark: '已收' }));
    expect(await about(admin, bill.id)).toHaveLength(before);
    expectOk(await admin.call('POST', `${TEMPLATE}/changeStatus`, { query: { id: template.id, status: 1 } }));
  });

  test('collaboration messages: sent to B and C, each reads their own copy; the sender sees who read it', async () => {
    const { b, c } = users;
    const unreadB = await unread(b.api);
    const sent = expectOk(await admin.post(`${SYNERGISM}/submit`, { title: '周会改期', content: '周会改到周四', receiverIds: [b.id, c.id, b.id] }));
    expect(sent).toMatchObject({ title: '周会改期', receiverIds: `${b.id},${c.id}`, sendUserName: '管理员', receiverNames: '乙用户,丙审核' });
    expect(await unread(b.api)).toBe(unreadB + 1);

    const inbox = expectOk(await b.api.get(`${SYNERGISM}/page`, { size: 50 })).records as Row[];
    expect(inbox.find((r) => r.id === sent.id)).toMatchObject({ title: '周会改期', content: '周会改到周四', readStatus: 1, sendUserName: '管理员' });
    expect(expectOk(await admin.get(`${SYNERGISM}/page`, { size: 50 })).records.map((r: Row) => r.id)).not.toContain(sent.id);
    const outbox = expectOk(await admin.get(`${SYNERGISM}/sentPage`, { size: 50 })).records as Row[];
    expect(outbox.find((r) => r.id === sent.id)).toMatchObject({ receiverCount: 2, readCount: 0 });
    // B's copy is a message of type 5 on 消息 as well.
    expect(await about(b.api, sent.id)).toEqual([expect.objectContaining({ msgType: 5, resource: 'msg-synergism', title: '周会改期' })]);

    expect(expectOk(await b.api.call('POST', `${SYNERGISM}/updateReadStatus`, { query: { ids: sent.id } }))).toEqual({ count: 1 });
    expect(await unread(b.api)).toBe(unreadB);
    expect(expectOk(await b.api.get(`${SYNERGISM}/page`, { readStatus: 2, size: 50 })).records.map((r: Row) => r.id)).toContain(sent.id);
    expect(expectOk(await c.api.get(`${SYNERGISM}/page`, { readStatus: 1, size: 50 })).records.map((r: Row) => r.id)).toContain(sent.id);
    const detail = expectOk(await admin.get(`${SYNERGISM}/detail`, { id: sent.id }));
    expect(detail).toMatchObject({ receiverCount: 2, readCount: 1 });
    const byUser = Object.fromEntries(detail.receivers.map((r: Row) => [r.userId, r]));
    expect(byUser[b.id]).toMatchObject({ userName: '乙用户', readStatus: 2, readTime: expect.stringMatching(/^\d{4}-/) });
    expect(byUser[c.id]).toMatchObject({ userName: '丙审核', readStatus: 1 });
    expect(expectOk(await c.api.get(`${SYNERGISM}/detail`, { id: sent.id }))).toMatchObject({ id: sent.id, readStatus: 1 });

    // A user neither sender nor receiver sees nothing of it.
    const d = await userWith('msgd', '丁用户', []);
    expect(expectOk(await d.api.get(`${SYNERGISM}/detail`, { id: sent.id }))).toBeFalsy();
    expect(expectOk(await d.api.call('POST', `${SYNERGISM}/updateReadStatus`, { query: { ids: sent.id } }))).toEqual({ count: 0 });
    expect(expectOk(await c.api.get(`${SYNERGISM}/detail`, { id: sent.id })).readStatus).toBe(1);

    // Bad sends: no receivers, a stranger, an edit.
    const none = await admin.post(`${SYNERGISM}/submit`, { title: 't', content: 'c', receiverIds: '' });
    expect(none.status).toBe(400);
    expect(none.body.data.fieldErrors.receiverIds).toBe('请选择接收人');
    expect((await admin.post(`${SYNERGISM}/submit`, { title: 't', content: 'c', receiverIds: 'nobody' })).body.msg).toBe('接收人不存在');
    expect((await admin.post(`${SYNERGISM}/submit`, { ...sent, title: '改了' })).body.msg).toBe('协同消息发送后不能修改');
  });

  test('another tenant sees and marks nothing of tenant 000000', async () => {
    const b = users.b;
    const task = expectOk<Row[]>(await admin.post(`${TASK}/send`, { userIds: b.id, title: '隔离任务' }))[0];
    const message = (await about(b.api, task.id))[0];
    const sent = expectOk(await admin.post(`${SYNERGISM}/submit`, { title: '隔离', content: '隔离', receiverIds: b.id }));
    const other = await signedIn(server.url, '100001');
    const text = JSON.stringify([
      expectOk(await other.get(`${INFO}/selectMessageInfoPage`, { size: 100 })),
      expectOk(await other.get(`${INFO}/list`, { size: 100 })),
      expectOk(await other.get(`${INFO}/detail`, { id: message.id })),
      expectOk(await other.get(`${TASK}/list`, { size: 100 })),
      expectOk(await other.get(`${SYNERGISM}/page`, { size: 100 })),
      expectOk(await other.get(`${SYNERGISM}/detail`, { id: sent.id })),
    ]);
    for (const id of [task.id, message.id, sent.id]) expect(text).not.toContain(id);
    expect(expectOk(await other.get(`${TASK}/count`)).count).toBe(0);
    expect(expectOk(await other.call('POST', `${INFO}/updateMsgInfoReadStatus`, { query: { ids: message.id } }))).toEqual({ count: 0 });
    expect((await other.call('POST', `${TASK}/finish`, { query: { id: task.id } })).status).toBe(400);
    expect((await other.call('POST', `${TASK}/remove`, { query: { ids: task.id } })).status).toBe(400);
    expect(expectOk(await b.api.get(`${INFO}/detail`, { id: message.id })).readStatus).toBe(1);
    expect(expectOk(await b.api.get(`${TASK}/count`)).count).toBeGreaterThan(0);
  });
});
