/**
 * Approval messages. Called once for every recorded bill action, inside the action's transaction
 * (engine/document/transitions.ts, recordAction), so a message exists exactly when the action
 * committed, and once per action whatever path took it (bill page, 待审单据, a batch):
 *  - an action that leaves the bill waiting for an approval step (submit → 1302 waits for 审核通过,
 *    老板审批 → 1303 waits for 出纳审批) tells every user of the tenant who holds that step's button
 *    (Permissions.usersHolding: the same rule that lets them take it; template bill_waiting);
 *  - an approval step or a rejection tells the bill's submitter (the user of its latest action that
 *    left it waiting; templates bill_approved / bill_rejected).
 * Every other action (draft, post, cancel, flush, remove) writes nothing and reads nothing.
 */
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { DocumentModel } from '../engine/document/context.ts';
import { documentFor, variantOf, type DocumentDef, type TransitionDef } from '../../shared/document.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { fromTemplate, MESSAGE_TYPE, sendMessages, type NewMessage } from './messages.ts';

/** Actions that approve a waiting bill, or move it to its next approval level. */
const APPROVALS = new Set(['pass', 'audit', 'approve', 'bossAudit', 'cashierAudit']);
const REJECT = 'reject';

/** The approval steps a bill in `state` waits for. */
function stepsFrom(doc: DocumentDef, state: string): TransitionDef[] {
  return doc.transitions.filter((t) => APPROVALS.has(t.action) && t.from.includes(state));
}

/** Who submitted the bill: the user of its latest (non-approval) action that left it waiting. */
async function submitterOf(services: Services, actor: Actor, dm: DocumentModel, bill: Row): Promise<string | undefined> {
  const actions = await services.store.find(services.internal.billAction, actor.tenantId, {
    where: { billId: String(bill.id), resource: dm.model.name },
    orderBy: [{ column: 'create_time', dir: 'desc' }, { column: 'id', dir: 'desc' }],
  });
  const submit = actions.find((a) => !APPROVALS.has(String(a.action)) && a.action !== REJECT && stepsFrom(dm.doc, String(a.toStatus ?? '')).length > 0);
  const user = submit?.createUser ?? bill.createUser;
  return user === undefined || user === null || user === '' ? undefined : String(user);
}

/**
 * The messages of one bill action `t` by `actor` (display name `who`), written in the caller's
 * transaction. `bill` is the head as read for the action (id, number, kind).
 */
export async function notifyTransition(services: Services, actor: Actor, dm: DocumentModel, t: TransitionDef, bill: Row, who: string, remark?: string): Promise<void> {
  if (t.to === 'deleted') return;
  const { doc, model } = dm;
  const steps = stepsFrom(doc, t.to);
  const decided = APPROVALS.has(t.action) || t.action === REJECT;
  if (!steps.length && !decided) return;
  const billNo = String(bill[doc.numberField] ?? '');
  const link = { resource: model.name, billId: String(bill.id), billNo, billType: documentFor(doc, bill).billType };
  const vars = {
    billName: (doc.variants ? variantOf(doc, bill[doc.variants.field])?.title : undefined) ?? model.title,
    billNo,
    sender: who,
    doneName: t.title ?? t.action,
    actionName: t.title ?? t.action,
    remark: remark ?? '',
    time: formatDateTime(),
  };
  const out: NewMessage[] = [];
  if (steps.length) {
    // Each approver is told of the steps they may take (预收款单 at 1302: 审核通过 or 老板审批).
    const held = new Map<string, string[]>();
    for (const step of steps) {
      if (!step.perm) continue;
      for (const userId of await services.perms.usersHolding(actor.tenantId, step.perm)) held.set(userId, [...(held.get(userId) ?? []), step.title ?? step.action]);
    }
    const byAction = new Map<string, string[]>();
    for (const [userId, titles] of held) byAction.set(titles.join('或'), [...(byAction.get(titles.join('或')) ?? []), userId]);
    for (const [actionName, approvers] of byAction) {
      const text = await fromTemplate(services, actor.tenantId, 'bill_waiting', { ...vars, actionName });
      if (text) for (const userId of approvers) out.push({ userId, msgType: MESSAGE_TYPE.approval, ...text, ...link });
    }
  }
  if (decided) {
    const submitter = await submitterOf(services, actor, dm, bill);
    const text = submitter ? await fromTemplate(services, actor.tenantId, t.action === REJECT ? 'bill_rejected' : 'bill_approved', vars) : null;
    if (submitter && text) out.push({ userId: submitter, msgType: MESSAGE_TYPE.approval, ...text, ...link });
  }
  await sendMessages(services, actor, out);
}
