import type { Services } from '../services.ts';
import { badRequest } from '../errors.ts';
import { formatDateTime } from '../../shared/dates.ts';

/**
 * Sends one SMS through the tenant's enabled SMS config. The embedded default (category 1, or no
 * config) writes to the outbox table an administrator can read, and to the server log.
 */
export async function sendSms(services: Services, tenantId: string, phone: string, content: string): Promise<void> {
  const configs = await services.store.find(services.m('sms'), tenantId, { where: { status: 2 } });
  const active = configs[0];
  const category = Number(active?.category ?? 1);
  if (category !== 1) throw badRequest('当前启用的短信配置暂不支持发送，请启用本地发件箱(local)配置');
  await services.store.insert(services.m('sms-outbox'), { tenantId, userId: '0' }, {
    phone,
    content,
    smsCode: String(active?.smsCode ?? 'local'),
    provider: 'local',
    sendTime: formatDateTime(),
  });
  services.log('info', `sms to ${phone}: ${content}`, { tenantId });
}
