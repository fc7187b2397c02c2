/**
 * 系统任务 (issue 16 §7), on SQLite and PostgreSQL: the maintenance tasks come with the system; a
 * due task is run once however many schedulers look at it at the same moment (one claims it); 立即运行
 * runs one and records its outcome; the interval is edited, never a task added; only the platform
 * tenant sees them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';
import { runDueTasks } from '../../src/server/system/tasks.ts';
import { formatDateTime } from '../../src/shared/dates.ts';

type Row = Record<string, unknown>;
const BASE = '/blade-system/systemtask';

describe.each(databases())('系统任务 ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  const tasks = async () => expectOk<{ records: Row[] }>(await admin.get(`${BASE}/list`, { current: 1, size: 10 })).records;

  test('the four tasks come with the system; another tenant cannot see them', async () => {
    expect((await tasks()).map((t) => t.taskCode).sort()).toEqual(['dbMaintenance', 'exportCleanup', 'marketingStatus', 'sessionCleanup']);
    const other = await signedIn(server.url, '100001', 'admin', 'admin');
    expect((await other.get(`${BASE}/list`)).status).toBe(403);
    expect((await admin.post(`${BASE}/submit`, { taskCode: 'x', intervalMinutes: 5, enabled: 2 })).body.msg).toBe('系统任务不可新增，请编辑已有任务');
  });

  test('立即运行 cleans expired sessions and records the outcome', async () => {
    const { store, internal } = server.services;
    await store.insert(internal.session, { tenantId: '000000', userId: '0' }, { id: 'expiredsession0000000000000001', userId: '1', clientId: 'saber', refreshJti: 'x', expireTime: '2020-01-01 00:00:00', revoked: 0 });
    const task = (await tasks()).find((t) => t.taskCode === 'sessionCleanup')!;
    const after = expectOk<Row>(await admin.call('POST', `${BASE}/run`, { query: { id: String(task.id) } }));
    expect(after).toMatchObject({ lastStatus: 1 });
    expect(String(after.lastMessage)).toMatch(/^删除会话 [1-9]\d* 个/);
    expect(await store.get(internal.session, '000000', 'expiredsession0000000000000001')).toBeUndefined();
    // The admin's own live session stays.
    expect((await admin.get(`${BASE}/list`)).status).toBe(200);
  });

  test('due tasks run once however many schedulers look at once; then not until their next run', async () => {
    const runs = await Promise.all([runDueTasks(server.services), runDueTasks(server.services), runDueTasks(server.services)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(4);
    const now = formatDateTime();
    for (const t of await tasks()) {
      expect(t.lastStatus, String(t.taskCode)).toBe(1);
      expect(String(t.nextRunTime) > now).toBe(true);
    }
    expect(await runDueTasks(server.services)).toBe(0);
  });

  test('the interval is checked and applies from now; a disabled task does not run', async () => {
    const task = (await tasks()).find((t) => t.taskCode === 'exportCleanup')!;
    const bad = await admin.post(`${BASE}/submit`, { id: task.id, version: task.version, intervalMinutes: 0, enabled: 2 });
    expect(bad.body.msg).toBe('运行间隔不能少于1分钟');
    const saved = expectOk<Row>(await admin.post(`${BASE}/submit`, { id: task.id, version: task.version, intervalMinutes: 30, enabled: 1 }));
    expect(saved).toMatchObject({ intervalMinutes: 30, enabled: 1 });
    const inMinutes = (Date.parse(String(saved.nextRunTime).replace(' ', 'T')) - Date.now()) / 60_000;
    expect(inMinutes).toBeGreaterThan(28);
    expect(inMinutes).toBeLessThan(31);
    // Due now but disabled: left alone.
    await server.services.store.update(server.services.m('system-task'), { tenantId: '000000', userId: '0' }, String(task.id), { nextRunTime: '2020-01-01 00:00:00' }, { includeReadonly: true });
    const before = String(saved.lastStartTime ?? '');
    await runDueTasks(server.services);
    expect(String(expectOk<Row>(await admin.get(`${BASE}/detail`, { id: task.id })).lastStartTime ?? '')).toBe(before);
  });
});
