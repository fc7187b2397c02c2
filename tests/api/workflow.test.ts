/**
 * Workflow on bpmn-engine, on SQLite and PostgreSQL: the default 请假流程 (model, deployment,
 * start-list, its XML); a leave request starts a process, the task waits in the candidates' 待签
 * (role alias leave_approver) and nobody else's, a stranger can neither claim nor complete it,
 * the approver claims (待办) and approves, the instance ends and the leave is 已通过; rejection and
 * the two-step path (over 3 days: 人事审批); history-flow-list, send-list, done-list and the leave
 * detail; messages to the candidates and to the starter; models (checked submit, deploy as a new
 * version, running instances keep theirs), deploy-upload of .bpmn files (bad files refused with
 * the reason), suspend/activate, delete-process-instance, delete-deployment; two candidates
 * completing one task at once (one wins); parallel branches; another tenant sees none of it; and a
 * server restart in the middle of a process: the instance resumes from the engine state in the
 * database and ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, freshPostgres, startTestServer, type TestServer } from '../support/server.ts';
import { expectOk, signedIn, type Api } from '../support/client.ts';
import { uniqueToken } from '../support/resources.ts';
import { createServer, REPO_ROOT } from '../../src/server/app.ts';

type Row = Record<string, any>;

const WORK = '/blade-flow/work';
const LEAVE = '/blade-desk/process/leave';
const LEAVE_XML = fs.readFileSync(path.join(REPO_ROOT, 'src/server/workflow/models/leave.bpmn'), 'utf8');

/** A one-step process: a task for the role alias `alias`, then the end. */
function oneStep(key: string, name: string, alias: string, extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" id="d_${key}" targetNamespace="http://test">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="s" name="开始" />
    <sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="审批" flowable:candidateGroups="${alias}" />
    <sequenceFlow id="f2" sourceRef="t" targetRef="e" />
    ${extra}
    <endEvent id="e" name="结束" />
  </process>
</definitions>`;
}

/** Multipart upload of files under `field`. */
function bpmnForm(files: { name: string; xml: string }[], field = 'files', category?: string): FormData {
  const form = new FormData();
  if (category) form.append('category', category);
  for (const f of files) form.append(field, new Blob([f.xml], { type: 'application/xml' }), f.name);
  return form;
}

interface People {
  admin: Api;
  starter: { id: string; api: Api };
  approver: { id: string; api: Api };
  hr: { id: string; api: Api };
  stranger: { id: string; api: Api };
}

/** Users: a starter (may add leaves), an approver (leave_approver), an HR user (hr) and a stranger. */
async function people(url: string, admin: Api, token: string): Promise<People> {
  const deptId = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0].id;
  async function user(account: string, realName: string, alias: string, buttons: string[]) {
    const role = expectOk(await admin.post('/blade-system/role/submit', { parentId: '0', roleName: `流程${account}`, roleAlias: alias, sort: 9 }));
    const ids: string[] = [];
    for (const code of buttons) {
      const [button] = expectOk<Row[]>(await admin.get('/blade-system/menu/list', { code_equal: code }));
      ids.push(String(button.id), String(button.parentId));
    }
    if (ids.length) expectOk(await admin.call('POST', '/blade-system/role/grant', { query: { roleIds: String(role.id), menuIds: [...new Set(ids)].join(',') } }));
    const saved = expectOk(await admin.post('/blade-user/submit', { account, password: 'Flow-12345', realName, roleId: String(role.id), deptId }));
    return { id: String(saved.id), api: await signedIn(url, '000000', account, 'Flow-12345') };
  }
  return {
    admin,
    starter: await user(`wfs${token}`, '请假人', `starter${token}`, ['leave_add']),
    approver: await user(`wfa${token}`, '部门经理', 'leave_approver', []),
    hr: await user(`wfh${token}`, '人事专员', 'hr', []),
    stranger: await user(`wfx${token}`, '无关人员', `nobody${token}`, []),
  };
}

async function staffId(admin: Api, token: string): Promise<string> {
  const dept = expectOk<Row[]>(await admin.get('/blade-system/dept/list'))[0];
  return String(expectOk(await admin.post('/blade-base/staff/submit', { staffCode: `QJ${token}`, staffName: `员工${token}`, deptId: dept.id })).id);
}

const leaveBody = (staff: string, days: number, extra: Row = {}) => ({
  staffId: staff,
  leaveType: '1',
  startTime: '2030-03-02 09:00:00',
  endTime: `2030-03-${String(2 + Math.ceil(days)).padStart(2, '0')} 18:00:00`,
  days: String(days),
  reason: `家中有事${days}天`,
  ...extra,
});

const page = async (api: Api, url: string, query: Row = {}) => expectOk(await api.get(url, { current: 1, size: 100, ...query }));
const tasksOf = async (api: Api, list: 'claim-list' | 'todo-list' | 'done-list', instanceId: string) =>
  ((await page(api, `${WORK}/${list}`)).records as Row[]).filter((t) => t.processInstanceId === instanceId);

describe.each(databases())('workflow ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  let staff: string;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    const admin = await signedIn(server.url);
    const token = uniqueToken().slice(-6).toLowerCase();
    p = await people(server.url, admin, token);
    staff = await staffId(admin, token);
  });
  afterAll(async () => server?.close());

  test('the default 请假流程 is a model, a deployed active definition, startable, with its XML', async () => {
    const models = (await page(p.admin, '/blade-flow/model/list')).records as Row[];
    const leave = models.find((m) => m.modelKey === 'Leave');
    expect(leave).toMatchObject({ name: '请假流程', category: 'office', deployedVersion: 1 });
    const defs = (await page(p.admin, '/blade-flow/manager/list', { key: 'Leave' })).records as Row[];
    expect(defs[0]).toMatchObject({ key: 'Leave', name: '请假流程', version: 1, suspensionState: 1, category: 'office', categoryName: '行政办公' });
    expect(defs[0].xml).toBeUndefined();
    const startable = (await page(p.starter.api, `${WORK}/start-list`)).records as Row[];
    expect(startable.map((d) => d.key)).toContain('Leave');
    const xml = await p.starter.api.get('/blade-flow/process/resource-view', { processDefinitionId: defs[0].id });
    expect(xml.status).toBe(200);
    expect(String(xml.body)).toContain('<userTask id="deptAudit" name="部门审批"');
  });

  test('a leave goes to the approver’s 待签, is claimed, approved, and the leave is 已通过', async () => {
    const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 2)));
    expect(started).toMatchObject({ auditStatus: 3101, staffName: expect.stringContaining('员工') });
    const instanceId = String(started.processInstanceId);
    expect(started.flow).toMatchObject({ processInstanceId: instanceId, processDefinitionKey: 'Leave', processIsFinished: 'unfinished' });

    // 待签: the approver (leave_approver) and the administrator (administrator) see it; the starter and a stranger do not.
    const [claimable] = await tasksOf(p.approver.api, 'claim-list', instanceId);
    expect(claimable).toMatchObject({ taskName: '部门审批', taskDefinitionKey: 'deptAudit', status: 'claim', assignee: null, businessTable: 'erp_leave', businessId: String(started.id), processDefinitionName: '请假流程', category: 'office' });
    expect(await tasksOf(p.admin, 'claim-list', instanceId)).toHaveLength(1);
    expect(await tasksOf(p.stranger.api, 'claim-list', instanceId)).toHaveLength(0);
    expect(await tasksOf(p.starter.api, 'claim-list', instanceId)).toHaveLength(0);

    // The approver is told; nobody else of the stranger's kind is.
    const waiting = (await page(p.approver.api, '/blade-desk/messageinfo/selectMessageInfoPage', { billId_equal: claimable.taskId })).records as Row[];
    expect(waiting[0]).toMatchObject({ msgType: 2, resource: 'flow-task', title: '待办流程：请假流程·部门审批' });
    expect((await page(p.stranger.api, '/blade-desk/messageinfo/selectMessageInfoPage', { billId_equal: claimable.taskId })).records).toHaveLength(0);

    // A stranger can neither claim nor complete it; the server decides, not the client.
    const claimByStranger = await p.stranger.api.call('POST', `${WORK}/claim-task`, { query: { taskId: claimable.taskId } });
    expect(claimByStranger.status).toBe(403);
    expect(claimByStranger.body.msg).toBe('您不是该任务的候选人，不能签收');
    const doneByStranger = await p.stranger.api.post(`${WORK}/complete-task`, { taskId: claimable.taskId, processInstanceId: instanceId, flag: 'ok', comment: '我来批' });
    expect(doneByStranger.status).toBe(403);
    expect(doneByStranger.body.msg).toBe('您不是该任务的办理人，无权办理');

    // Claimed: it leaves everyone's 待签 and is in the approver's 待办; the administrator may no longer take it.
    expect(expectOk(await p.approver.api.call('POST', `${WORK}/claim-task`, { query: { taskId: claimable.taskId } }))).toMatchObject({ status: 'todo', assignee: p.approver.id, assigneeName: '部门经理' });
    expect(await tasksOf(p.admin, 'claim-list', instanceId)).toHaveLength(0);
    const [todo] = await tasksOf(p.approver.api, 'todo-list', instanceId);
    expect(todo).toMatchObject({ taskId: claimable.taskId, status: 'todo', claimTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    const byAdmin = await p.admin.post(`${WORK}/complete-task`, { taskId: claimable.taskId, flag: 'ok' });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.msg).toBe('该任务已由他人签收，您无权办理');
    expect((await p.approver.api.post(`${WORK}/complete-task`, { taskId: claimable.taskId })).body.msg).toBe('请选择审批结果（同意或驳回）');

    // 已发: the starter's instance, still running.
    const sent = ((await page(p.starter.api, `${WORK}/send-list`)).records as Row[]).find((r) => r.processInstanceId === instanceId);
    expect(sent).toMatchObject({ processDefinitionKey: 'Leave', startUserId: p.starter.id, startUser: '请假人', processIsFinished: 'unfinished', currentActivityNames: '部门审批' });

    const done = expectOk(await p.approver.api.post(`${WORK}/complete-task`, { taskId: claimable.taskId, processInstanceId: instanceId, flag: 'ok', comment: '同意，注意交接' }));
    expect(done).toMatchObject({ status: 'finish', pass: 1, comment: '同意，注意交接', processIsFinished: 'finished' });
    const again = await p.approver.api.post(`${WORK}/complete-task`, { taskId: claimable.taskId, flag: 'ok' });
    expect(again.body.msg).toBe('该任务已办理或已取消，请刷新后重试');

    // The leave is approved; the starter is told; the approver's 办结 and the history show it.
    const detail = expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: started.id }));
    expect(detail).toMatchObject({ auditStatus: 3102, processInstanceId: instanceId, flow: { processIsFinished: 'finished', endActivityId: 'approved', endActivityName: '审批通过', tasks: [] } });
    expect(detail.history.map((h: Row) => h.historyActivityName)).toEqual(['发起请假', '部门审批', '审批通过']);
    expect(detail.history[1]).toMatchObject({ assignee: p.approver.id, assigneeName: '部门经理', comment: '同意，注意交接', pass: 1, historyActivityType: 'userTask' });
    expect(detail.history[0]).toMatchObject({ assignee: p.starter.id, assigneeName: '请假人', historyActivityType: 'startEvent' });
    const history = expectOk(await p.approver.api.get('/blade-flow/process/history-flow-list', { processInstanceId: instanceId }));
    expect(history).toEqual(detail.history);
    const strangerHistory = await p.stranger.api.get('/blade-flow/process/history-flow-list', { processInstanceId: instanceId });
    expect(strangerHistory.status).toBe(403);
    expect((await tasksOf(p.approver.api, 'done-list', instanceId))[0]).toMatchObject({ taskId: claimable.taskId, status: 'finish', processIsFinished: 'finished' });
    const finished = (await page(p.starter.api, '/blade-desk/messageinfo/selectMessageInfoPage', { billId_equal: instanceId })).records as Row[];
    expect(finished[0]).toMatchObject({ title: '流程已办结：请假流程（审批通过）', resource: 'flow-instance' });
    expect(finished[0].content).toContain('同意，注意交接');
    // Finished instances leave 流程跟踪 (running only).
    expect(((await page(p.admin, '/blade-flow/follow/list')).records as Row[]).map((r) => r.id)).not.toContain(instanceId);
  });

  test('a rejection ends the process and the leave is 已驳回; a saved leave starts by id, once', async () => {
    const saved = expectOk(await p.starter.api.post('/blade-hr/leave/submit', leaveBody(staff, 1)));
    const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, { id: saved.id }));
    expect(started.id).toBe(saved.id);
    const twice = await p.starter.api.post(`${LEAVE}/start-process`, { id: saved.id });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('该请假已在审批中');
    // In approval the leave is the process's: no edit (fewer days), no removal.
    const inReview = expectOk(await p.starter.api.get('/blade-hr/leave/detail', { id: saved.id }));
    const edit = await p.starter.api.post('/blade-hr/leave/submit', { ...inReview, days: '0.5' });
    expect(edit.body.msg).toBe('审批中的请假不能修改，如需撤回请在流程跟踪中删除其流程');
    expect((await p.admin.call('POST', '/blade-hr/leave/remove', { query: { ids: saved.id } })).body.msg).toBe('审批中的请假不能删除，如需撤回请在流程跟踪中删除其流程');
    const [task] = await tasksOf(p.approver.api, 'claim-list', started.processInstanceId);
    // A candidate may complete an unclaimed task directly (it is claimed on the way).
    expectOk(await p.approver.api.post(`${WORK}/complete-task`, { taskId: task.taskId, flag: 'reject', comment: '项目上线期间不批' }));
    const detail = expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: saved.id }));
    expect(detail).toMatchObject({ auditStatus: 3103, flow: { endActivityId: 'rejected', processIsFinished: 'finished' } });
    expect(detail.history[1]).toMatchObject({ assignee: p.approver.id, pass: 0, comment: '项目上线期间不批' });
    const finished = (await page(p.starter.api, '/blade-desk/messageinfo/selectMessageInfoPage', { billId_equal: started.processInstanceId })).records as Row[];
    expect(finished[0].title).toBe('流程已办结：请假流程（已驳回）');
    const closed = await p.starter.api.post(`${LEAVE}/start-process`, { id: saved.id });
    expect(closed.body.msg).toBe('只有待审核的请假可以发起审批');
    expect((await p.admin.call('POST', '/blade-hr/leave/remove', { query: { ids: saved.id } })).body.msg).toBe('已审核的请假不能删除');
  });

  test('two candidates completing the same task at once: one wins, the other is told, the process moves once', async () => {
    const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 1)));
    const [task] = await tasksOf(p.approver.api, 'claim-list', started.processInstanceId);
    const replies = await Promise.all([
      p.approver.api.post(`${WORK}/complete-task`, { taskId: task.taskId, flag: 'ok', comment: '经理同意' }),
      p.admin.post(`${WORK}/complete-task`, { taskId: task.taskId, flag: 'reject', comment: '管理员驳回' }),
    ]);
    const won = replies.filter((r) => r.body.code === 200);
    expect(won).toHaveLength(1);
    const lost = replies.find((r) => r.body.code !== 200)!;
    expect(lost.status).toBeLessThan(500);
    expect(['任务已被他人办理，请刷新后重试', '该任务已办理或已取消，请刷新后重试', '流程已被他人推进，请刷新后重试']).toContain(lost.body.msg);
    const detail = expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: started.id }));
    expect(detail.auditStatus).toBe(won[0].body.data.pass === 1 ? 3102 : 3103);
    expect(detail.history.filter((h: Row) => h.historyActivityType === 'userTask')).toHaveLength(1);
    expect(detail.history.at(-1).historyActivityType).toBe('endEvent');
  });

  test('over 3 days the leave also needs 人事审批 (role hr); its rejection rejects the leave', async () => {
    const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 5)));
    const instanceId = String(started.processInstanceId);
    const [dept] = await tasksOf(p.approver.api, 'claim-list', instanceId);
    expect(await tasksOf(p.hr.api, 'claim-list', instanceId)).toHaveLength(0);
    expectOk(await p.approver.api.post(`${WORK}/complete-task`, { taskId: dept.taskId, pass: true }));
    expect(expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: started.id }))).toMatchObject({ auditStatus: 3101, flow: { currentActivityNames: '人事审批' } });
    expect(await tasksOf(p.approver.api, 'claim-list', instanceId)).toHaveLength(0);
    const [hrTask] = await tasksOf(p.hr.api, 'claim-list', instanceId);
    expect(hrTask).toMatchObject({ taskName: '人事审批', taskDefinitionKey: 'hrAudit' });
    expectOk(await p.hr.api.call('POST', `${WORK}/claim-task`, { query: { taskId: hrTask.taskId } }));
    expectOk(await p.hr.api.post(`${WORK}/complete-task`, { taskId: hrTask.taskId, pass: false, comment: '年假已用完' }));
    const detail = expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: started.id }));
    expect(detail.auditStatus).toBe(3103);
    expect(detail.history.map((h: Row) => [h.historyActivityName, h.comment])).toEqual([
      ['发起请假', ''],
      ['部门审批', '同意'],
      ['人事审批', '年假已用完'],
      ['已驳回', ''],
    ]);
  });

  test('models: a bad file is refused with the reason; a new version deploys; running instances keep their version', async () => {
    const bad = async (xml: string) => (await p.admin.post('/blade-flow/model/submit', { name: '坏模型', xml })).body.msg as string;
    expect(await bad('<definitions')).toContain('流程文件不是有效的BPMN 2.0 XML');
    expect(await bad(oneStep('NoHandler', '无人办理', 'x').replace(' flowable:candidateGroups="x"', ''))).toContain('用户任务「审批」未指定办理人');
    expect(await bad(oneStep('Script', '脚本', 'x', '<scriptTask id="sc" name="跑脚本" scriptFormat="javascript"><script>process.exit()</script></scriptTask>'))).toContain('暂不支持脚本任务「跑脚本」');
    expect(await bad(LEAVE_XML.replace('${pass}', '${pass +}'))).toContain('连线「同意」的条件表达式「${pass +}」有误');
    const mismatch = await p.admin.post('/blade-flow/model/submit', { modelKey: 'Other', name: 'x', xml: LEAVE_XML });
    expect(mismatch.body.msg).toContain('与流程文件中的流程标识（process id）「Leave」不一致');
    expect((await p.stranger.api.post('/blade-flow/model/submit', { name: 'x', xml: oneStep('Mine', '我的', 'x') })).status).toBe(403);

    // A leave running on version 1 …
    const running = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 1)));
    // … while the model changes: only the administrator approves in version 2.
    const leaveModel = ((await page(p.admin, '/blade-flow/model/list', { modelKey: 'Leave' })).records as Row[])[0];
    const full = expectOk(await p.admin.get('/blade-flow/model/detail', { id: leaveModel.id }));
    const v2xml = full.xml.replaceAll('flowable:candidateGroups="leave_approver,administrator"', 'flowable:candidateGroups="administrator"');
    expectOk(await p.admin.post('/blade-flow/model/submit', { ...full, xml: v2xml }));
    expect((await p.stranger.api.call('POST', '/blade-flow/model/deploy', { query: { modelId: leaveModel.id } })).status).toBe(403);
    const v2 = expectOk(await p.admin.call('POST', '/blade-flow/model/deploy', { query: { modelId: leaveModel.id } }));
    expect(v2).toMatchObject({ key: 'Leave', version: expect.any(Number), suspensionState: 1 });
    expect(v2.version).toBeGreaterThan(1);
    expect(expectOk(await p.admin.get('/blade-flow/model/detail', { id: leaveModel.id }))).toMatchObject({ deployedVersion: v2.version });
    const startable = ((await page(p.starter.api, `${WORK}/start-list`)).records as Row[]).filter((d) => d.key === 'Leave');
    expect(startable).toHaveLength(1);
    expect(startable[0].version).toBe(v2.version);

    const newer = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 1)));
    expect(newer.flow.processDefinitionVersion).toBe(v2.version);
    expect(await tasksOf(p.approver.api, 'claim-list', newer.processInstanceId)).toHaveLength(0);
    expect(await tasksOf(p.admin, 'claim-list', newer.processInstanceId)).toHaveLength(1);
    // The older instance still asks the approver (version 1's rule).
    const [old] = await tasksOf(p.approver.api, 'claim-list', running.processInstanceId);
    expect(old.processDefinitionVersion).toBe(1);
    expectOk(await p.approver.api.post(`${WORK}/complete-task`, { taskId: old.taskId, flag: 'ok' }));
    expect(expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: running.id })).auditStatus).toBe(3102);
    const [fresh] = await tasksOf(p.admin, 'claim-list', newer.processInstanceId);
    expectOk(await p.admin.post(`${WORK}/complete-task`, { taskId: fresh.taskId, flag: 'ok' }));
    expect(expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: newer.id })).auditStatus).toBe(3102);
  });

  test('deploy-upload checks each .bpmn file; suspend stops starting and handling; instances and deployments are deleted', async () => {
    const key = `Trip${uniqueToken().slice(-5)}`;
    const refused = await p.admin.call('POST', '/blade-flow/manager/deploy-upload', { form: bpmnForm([{ name: 'trip.bpmn', xml: oneStep(key, '出差', 'leave_approver').replace('<sequenceFlow id="f2" sourceRef="t" targetRef="e" />', '').replace('<endEvent id="e" name="结束" />', '') }]) });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('流程缺少结束事件');
    const notBpmn = await p.admin.call('POST', '/blade-flow/manager/deploy-upload', { form: bpmnForm([{ name: 'trip.exe', xml: 'MZ' }]) });
    expect(notBpmn.body.msg).toBe('文件「trip.exe」不是流程文件，请上传 .bpmn 或 .bpmn20.xml 文件');
    expect((await p.stranger.api.call('POST', '/blade-flow/manager/deploy-upload', { form: bpmnForm([{ name: 'trip.bpmn', xml: oneStep(key, '出差', 'x') }]) })).status).toBe(403);
    const deployed = expectOk<Row[]>(await p.admin.call('POST', '/blade-flow/manager/deploy-upload', { form: bpmnForm([{ name: 'trip.bpmn', xml: oneStep(key, '出差', 'leave_approver') }], 'file', 'other') }));
    expect(deployed[0]).toMatchObject({ key, name: '出差', version: 1, category: 'other', resourceName: 'trip.bpmn' });
    expect(((await page(p.admin, '/blade-flow/manager/list', { key })).records as Row[]).map((d) => d.id)).toEqual([deployed[0].id]);

    // Suspend the current Leave definition: no start, and its running instance cannot be handled.
    const current = ((await page(p.starter.api, `${WORK}/start-list`)).records as Row[]).find((d) => d.key === 'Leave')!;
    const running = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 2)));
    expect((await p.stranger.api.call('POST', '/blade-flow/manager/change-state', { query: { processId: current.id, state: 'suspend' } })).status).toBe(403);
    const suspended = await p.admin.call('POST', '/blade-flow/manager/change-state', { query: { processId: current.id, state: 'suspend' } });
    expect(suspended.body).toMatchObject({ code: 200, msg: `挂起流程「请假流程」（版本${current.version}）成功` });
    expect(((await page(p.starter.api, `${WORK}/start-list`)).records as Row[]).map((d) => d.key)).not.toContain('Leave');
    for (const body of [leaveBody(staff, 2, { processDefinitionId: current.id }), leaveBody(staff, 2)]) {
      expect((await p.starter.api.post(`${LEAVE}/start-process`, body)).body.msg).toBe('流程「请假流程」已挂起，不能发起');
    }
    const [task] = await tasksOf(p.admin, 'claim-list', running.processInstanceId);
    const blocked = await p.admin.post(`${WORK}/complete-task`, { taskId: task.taskId, flag: 'ok' });
    expect(blocked.body.msg).toBe('流程「请假流程」已挂起，不能签收或办理');
    expectOk(await p.admin.call('POST', '/blade-flow/manager/change-state', { query: { processId: current.id, state: 'active' } }));

    // A deployment with a running instance cannot go; the instance is deleted first (task cancelled, leave released).
    const stuck = await p.admin.call('POST', '/blade-flow/manager/delete-deployment', { query: { deploymentId: current.deploymentId } });
    expect(stuck.body.msg).toContain('运行中的流程实例');
    const follow = (await page(p.admin, '/blade-flow/follow/list', { processInstanceId: running.processInstanceId })).records as Row[];
    expect(follow).toHaveLength(1);
    expect(follow[0]).toMatchObject({ processInstanceId: running.processInstanceId, processDefinitionKey: 'Leave', startUserId: p.starter.id, startUser: '请假人', suspensionState: 1 });
    expect(follow[0].engineState).toBeUndefined();
    expect((await p.stranger.api.get('/blade-flow/follow/list')).status).toBe(403);
    expect((await p.stranger.api.call('POST', '/blade-flow/follow/delete-process-instance', { query: { processInstanceId: running.processInstanceId } })).status).toBe(403);
    expectOk(await p.admin.call('POST', '/blade-flow/follow/delete-process-instance', { query: { processInstanceId: running.processInstanceId, deleteReason: '重复提交' } }));
    expect(await tasksOf(p.admin, 'claim-list', running.processInstanceId)).toHaveLength(0);
    const released = expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: running.id }));
    expect(released).toMatchObject({ auditStatus: 3101, processInstanceId: '' });
    expect(released.history.at(-1)).toMatchObject({ historyActivityName: '流程已删除', comment: '重复提交' });
    expect(released.history[1].comment).toBe('（任务已取消）');
    // A deleted instance's leave may be started again.
    const again = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, { id: running.id }));
    expect(again.processInstanceId).not.toBe(running.processInstanceId);

    expectOk(await p.admin.call('POST', '/blade-flow/manager/delete-deployment', { query: { deploymentIds: deployed[0].deploymentId } }));
    expect((await page(p.admin, '/blade-flow/manager/list', { key })).records).toHaveLength(0);
  });

  test('another tenant sees none of it and cannot act on it', async () => {
    const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 1)));
    const [task] = await tasksOf(p.admin, 'claim-list', started.processInstanceId);
    const b = await signedIn(server.url, '100001');
    for (const url of [`${WORK}/claim-list`, `${WORK}/todo-list`, `${WORK}/done-list`, `${WORK}/send-list`, '/blade-flow/follow/list']) {
      expect(JSON.stringify(expectOk(await b.get(url, { size: 100 })))).not.toContain(started.processInstanceId);
    }
    // Tenant B has its own default model.
    expect(((await page(b, '/blade-flow/manager/list', { key: 'Leave' })).records as Row[]).every((d) => d.tenantId === '100001')).toBe(true);
    expect((await b.call('POST', `${WORK}/claim-task`, { query: { taskId: task.taskId } })).body.msg).toBe('任务不存在或已被删除');
    expect((await b.post(`${WORK}/complete-task`, { taskId: task.taskId, flag: 'ok' })).body.msg).toBe('任务不存在或已被删除');
    expect((await b.get('/blade-flow/process/history-flow-list', { processInstanceId: started.processInstanceId })).body.msg).toBe('流程实例不存在或已被删除');
    expect((await b.get(`${LEAVE}/detail`, { businessId: started.id })).body.msg).toBe('请假记录不存在或已被删除');
    expect((await b.call('POST', '/blade-flow/follow/delete-process-instance', { query: { processInstanceId: started.processInstanceId } })).body.msg).toBe('流程实例不存在或已被删除');
    expect(await tasksOf(p.admin, 'claim-list', started.processInstanceId)).toHaveLength(1);
  });

  test('部门审批 also goes to the heads of the department of the staff member on leave', async () => {
    const token = uniqueToken().slice(-6).toLowerCase();
    const dept = expectOk(await p.admin.post('/blade-system/dept/submit', { parentId: '0', deptName: `研发${token}`, fullName: `研发部${token}`, deptCategory: 1, sort: 9 }));
    const headRole = expectOk(await p.admin.post('/blade-system/role/submit', { parentId: '0', roleName: `主管${token}`, roleAlias: `head${token}`, sort: 9 }));
    const head = expectOk(await p.admin.post('/blade-user/submit', { account: `wfd${token}`, password: 'Flow-12345', realName: '研发主管', roleId: String(headRole.id), deptId: dept.id }));
    const headApi = await signedIn(server.url, '000000', `wfd${token}`, 'Flow-12345');
    expectOk(await p.admin.post('/blade-base/staff/submit', { staffCode: `ZG${token}`, staffName: `主管${token}`, deptId: dept.id, isDeptHead: 2, isUser: 2, userId: String(head.id) }));
    const worker = String(expectOk(await p.admin.post('/blade-base/staff/submit', { staffCode: `YG${token}`, staffName: `研发员${token}`, deptId: dept.id })).id);

    const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(worker, 1)));
    const [task] = await tasksOf(headApi, 'claim-list', started.processInstanceId);
    expect(task).toMatchObject({ taskName: '部门审批', candidateUsers: String(head.id) });
    // A leave of someone in another department does not reach this head.
    const other = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 1)));
    expect(await tasksOf(headApi, 'claim-list', other.processInstanceId)).toHaveLength(0);
    expectOk(await headApi.post(`${WORK}/complete-task`, { taskId: task.taskId, flag: 'ok' }));
    expect(expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: started.id })).auditStatus).toBe(3102);
  });

  // Last in this suite: it deploys a new Leave version that the tests above do not expect.
  test('parallel branches: both tasks open at once, the process ends when both are done', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" id="par" targetNamespace="http://test">
  <process id="Leave" name="请假会签" isExecutable="true">
    <startEvent id="s" name="发起" />
    <sequenceFlow id="f0" sourceRef="s" targetRef="fork" />
    <parallelGateway id="fork" />
    <sequenceFlow id="f1" sourceRef="fork" targetRef="dept" />
    <sequenceFlow id="f2" sourceRef="fork" targetRef="hr" />
    <userTask id="dept" name="部门会签" flowable:candidateGroups="leave_approver" />
    <userTask id="hr" name="人事会签" flowable:candidateGroups="hr" />
    <sequenceFlow id="f3" sourceRef="dept" targetRef="join" />
    <sequenceFlow id="f4" sourceRef="hr" targetRef="join" />
    <parallelGateway id="join" />
    <sequenceFlow id="f5" sourceRef="join" targetRef="e" />
    <endEvent id="e" name="会签完成" />
  </process>
</definitions>`;
    const [definition] = expectOk<Row[]>(await p.admin.call('POST', '/blade-flow/manager/deploy-upload', { form: bpmnForm([{ name: 'leave-parallel.bpmn', xml }]) }));
    const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 2, { processDefinitionId: definition.id })));
    const instanceId = String(started.processInstanceId);
    const [dept] = await tasksOf(p.approver.api, 'claim-list', instanceId);
    const [hr] = await tasksOf(p.hr.api, 'claim-list', instanceId);
    expect([dept.taskName, hr.taskName]).toEqual(['部门会签', '人事会签']);
    expectOk(await p.approver.api.post(`${WORK}/complete-task`, { taskId: dept.taskId, flag: 'ok' }));
    const half = expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: started.id }));
    expect(half).toMatchObject({ auditStatus: 3101, flow: { processIsFinished: 'unfinished', currentActivityNames: '人事会签' } });
    expect(await tasksOf(p.hr.api, 'claim-list', instanceId)).toHaveLength(1);
    expectOk(await p.hr.api.post(`${WORK}/complete-task`, { taskId: hr.taskId, flag: 'ok' }));
    const done = expectOk(await p.starter.api.get(`${LEAVE}/detail`, { businessId: started.id }));
    expect(done).toMatchObject({ auditStatus: 3102, flow: { processIsFinished: 'finished', endActivityName: '会签完成' } });
    expect(done.history.map((h: Row) => h.historyActivityName)).toEqual(['发起', '部门会签', '人事会签', '会签完成']);
  });
});

describe.each(databases())('workflow across a server restart ($name)', ({ databaseUrl }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-wf-'));
  let db: { url: string; drop(): Promise<void> } | undefined;

  /** The real server on a fixed data folder (and database), so a second start finds the first one's rows. */
  async function boot() {
    const server = await createServer(
      { host: '127.0.0.1', port: 0, dataDir, databaseUrl: db?.url, uploadLimit: 5 * 1024 * 1024, clientDir: path.join(REPO_ROOT, 'dist/client'), logRequests: false },
      { quiet: true },
    );
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address();
    return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  }

  beforeAll(async () => {
    if (databaseUrl) db = await freshPostgres(databaseUrl);
  });
  afterAll(async () => {
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a leave started before a restart is approved after it, and its instance ends', async () => {
    const first = await boot();
    let leaveId: string;
    let instanceId: string;
    let token: string;
    try {
      const admin = await signedIn(first.url);
      token = uniqueToken().slice(-6).toLowerCase();
      const p = await people(first.url, admin, token);
      const staff = await staffId(admin, token);
      const started = expectOk(await p.starter.api.post(`${LEAVE}/start-process`, leaveBody(staff, 5)));
      leaveId = String(started.id);
      instanceId = String(started.processInstanceId);
      // One step before the restart (部门审批), one after (人事审批).
      const [dept] = await tasksOf(p.approver.api, 'claim-list', instanceId);
      expectOk(await p.approver.api.post(`${WORK}/complete-task`, { taskId: dept.taskId, flag: 'ok' }));
    } finally {
      await first.server.close();
    }

    const second = await boot();
    try {
      const hr = await signedIn(second.url, '000000', `wfh${token!}`, 'Flow-12345');
      const [task] = await tasksOf(hr, 'claim-list', instanceId!);
      expect(task).toMatchObject({ taskName: '人事审批' });
      expectOk(await hr.call('POST', `${WORK}/claim-task`, { query: { taskId: task.taskId } }));
      expectOk(await hr.post(`${WORK}/complete-task`, { taskId: task.taskId, flag: 'ok', comment: '准假' }));
      const starter = await signedIn(second.url, '000000', `wfs${token!}`, 'Flow-12345');
      const detail = expectOk(await starter.get(`${LEAVE}/detail`, { businessId: leaveId! }));
      expect(detail).toMatchObject({ auditStatus: 3102, flow: { processIsFinished: 'finished', endActivityName: '审批通过' } });
      expect(detail.history.map((h: Row) => h.historyActivityName)).toEqual(['发起请假', '部门审批', '人事审批', '审批通过']);
    } finally {
      await second.server.close();
    }
  }, 180_000);
});
