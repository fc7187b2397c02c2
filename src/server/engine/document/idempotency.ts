/**
 * Idempotent actions: the client sends one `Idempotency-Key` per click. The first answer is stored
 * in the same transaction as the action, so a retry — after a lost reply, or racing the first —
 * gets that answer again and writes nothing new.
 */
import type { Services } from '../../services.ts';
import type { Actor } from '../store.ts';
import { badRequest } from '../../errors.ts';

async function stored(services: Services, actor: Actor, key: string, endpoint: string): Promise<{ answer: unknown } | undefined> {
  const row = (await services.store.find(services.internal.idempotency, actor.tenantId, { where: { idemKey: key }, limit: 1 }))[0];
  if (!row) return undefined;
  if (String(row.userId) !== actor.userId || String(row.endpoint) !== endpoint) throw badRequest('Idempotency-Key 已用于其他请求，请为每次操作生成新的键');
  return { answer: JSON.parse(String(row.answer)) };
}

export async function withIdempotency<T>(services: Services, actor: Actor, key: string | undefined, endpoint: string, run: () => Promise<T>): Promise<T> {
  if (!key) return run();
  if (key.length > 128) throw badRequest('Idempotency-Key 不能超过128个字符');
  const first = await stored(services, actor, key, endpoint);
  if (first) return first.answer as T;
  try {
    return await services.store.transaction(async () => {
      const answer = await run();
      await services.store.insertMany(services.internal.idempotency, actor, [{ idemKey: key, userId: actor.userId, endpoint, answer: JSON.stringify(answer) }]);
      return answer;
    });
  } catch (error) {
    // A concurrent twin committed first: answer as it did.
    const twin = await stored(services, actor, key, endpoint);
    if (twin) return twin.answer as T;
    throw error;
  }
}
