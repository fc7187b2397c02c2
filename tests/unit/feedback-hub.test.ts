import { describe, expect, test, vi } from 'vitest';
import type { MessageType } from 'antd/es/message/interface';
import { createFeedbackHub, type Feedback } from '../../src/client/feedback/feedbackHub.ts';

/** A stand-in for antd's holders: records what was shown and lets the test settle it. */
function fakeHolders() {
  const shown: string[] = [];
  const closed: string[] = [];
  const dialogs: { config: unknown; destroyed: boolean; updates: unknown[]; settle(ok: boolean): void }[] = [];
  const notice = (kind: string) => (content: unknown) => {
    shown.push(`${kind}:${String(content)}`);
    const handle = (() => void closed.push(String(content))) as unknown as MessageType;
    handle.then = (ok) => Promise.resolve(true).then(ok);
    return handle;
  };
  const dialog = (kind: string) => (config: unknown) => {
    let settle!: (ok: boolean) => void;
    const done = new Promise<boolean>((resolve) => (settle = resolve));
    const record = { config, destroyed: false, updates: [] as unknown[], settle };
    dialogs.push(record);
    shown.push(`${kind}-dialog`);
    return {
      destroy: () => void (record.destroyed = true),
      update: (update: unknown) => void record.updates.push(update),
      then: <T>(ok: (confirmed: boolean) => T) => done.then(ok),
    };
  };
  const api = {
    message: { info: notice('info'), success: notice('success'), error: notice('error'), warning: notice('warning'), loading: notice('loading'), open: notice('open'), destroy: vi.fn() },
    modal: { info: dialog('info'), success: dialog('success'), error: dialog('error'), warning: dialog('warning'), confirm: dialog('confirm') },
  } as unknown as Feedback;
  return { api, shown, closed, dialogs };
}

// The shell's toasts and dialogs before antd's holders have loaded (issue 17: they load after the first page).
describe('feedback hub', () => {
  test('calls made before the holders are there ask for them once and show, in order, when they come', () => {
    const requestLoad = vi.fn();
    const hub = createFeedbackHub(requestLoad);
    hub.feedback.message.success('保存成功');
    hub.feedback.message.warning('请选择数据');
    expect(requestLoad).toHaveBeenCalled();
    const holders = fakeHolders();
    hub.attach(holders.api);
    expect(holders.shown).toEqual(['success:保存成功', 'warning:请选择数据']);
    // Attached: calls go straight through.
    hub.feedback.message.error('失败');
    expect(holders.shown.at(-1)).toBe('error:失败');
  });

  test('a toast closed before the holders came is never shown; one closed after is closed', async () => {
    const hub = createFeedbackHub(() => {});
    const early = hub.feedback.message.info('早');
    const late = hub.feedback.message.info('晚');
    early();
    const holders = fakeHolders();
    hub.attach(holders.api);
    expect(holders.shown).toEqual(['info:晚']);
    late();
    expect(holders.closed).toEqual(['晚']);
    await expect(early).resolves.toBe(false);
  });

  test('an early dialog takes its updates and destroy once it exists, and settles as it does', async () => {
    const hub = createFeedbackHub(() => {});
    const dialog = hub.feedback.modal.info({ title: '进度' });
    dialog.update({ content: '1/2' });
    const confirm = hub.feedback.modal.confirm({ title: '确定删除?' });
    const answer = confirm.then((ok) => ok, () => {});
    const holders = fakeHolders();
    hub.attach(holders.api);
    expect(holders.dialogs[0].updates).toEqual([{ content: '1/2' }]);
    dialog.destroy();
    expect(holders.dialogs[0].destroyed).toBe(true);
    holders.dialogs[1].settle(true);
    await expect(answer).resolves.toBe(true);
  });

  test('after detach (the frame left) calls wait again for the next holders', () => {
    const requestLoad = vi.fn();
    const hub = createFeedbackHub(requestLoad);
    const first = fakeHolders();
    hub.attach(first.api);
    hub.detach();
    hub.feedback.modal.confirm({ title: '退出系统?' });
    expect(first.shown).toEqual([]);
    expect(requestLoad).toHaveBeenCalledTimes(1);
    const second = fakeHolders();
    hub.attach(second.api);
    expect(second.shown).toEqual(['confirm-dialog']);
  });
});
