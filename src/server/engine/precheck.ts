/**
 * The entity's own rules on a submit body before a handler's rules of its own: a custom submit
 * (优惠券, 弹窗广告 …) first checks what the generic submit checks — types, lengths, patterns,
 * required fields of a new record — so a wrong value is reported as the schema says, never as a
 * cross-field rule that happened to run first.
 */
import type { Services } from '../services.ts';
import type { Model } from './model.ts';
import type { Actor, Row } from './store.ts';
import { notFound } from '../errors.ts';
import { applyDefaults, stripReadonly } from './records.ts';
import { validateEntity } from './validate.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** Answers the stored row the body edits (undefined for a new one); refuses a body the schema refuses. */
export async function checkSubmitBody(services: Services, actor: Actor, model: Model, body: Row): Promise<Row | undefined> {
  const stored = blank(body.id) ? undefined : await services.store.get(model, actor.tenantId, String(body.id));
  if (!blank(body.id) && !stored) throw notFound(`${model.resource?.title ?? '记录'}不存在或已被删除`);
  const merged: Row = { ...(stored ?? {}), ...stripReadonly(model, body) };
  if (!stored) applyDefaults(model, merged);
  validateEntity(model.resource!.entity, merged);
  return stored;
}
