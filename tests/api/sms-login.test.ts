/**
 * Sign-in by phone: sms/send-validate writes the code to the outbox (the embedded SMS default),
 * and grant_type sms_code with phone + code + smsId signs the phone's user in, once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, expectOk, signedIn } from '../support/client.ts';

const PHONE = '13800000000'; // the demo admin of tenant 000000

describe.each(databases())('sms sign-in ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  /** Asks for a code and reads it back from the outbox, as an administrator can. */
  async function sendCode(phone = PHONE): Promise<{ smsId: string; code: string }> {
    const anonymous = new Api(server.url);
    const sent = expectOk<{ id: string }>(
      await anonymous.call('POST', '/blade-auth/oauth/sms/send-validate', { query: { tenantId: '000000', phone }, token: null }),
      'send-validate',
    );
    const outbox = expectOk(await admin.get('/blade-resource/sms-outbox/list', { phone_equal: phone, descs: 'send_time' }));
    const content = String(outbox.records[0]?.content ?? '');
    const code = content.match(/(\d{6})/)?.[1];
    expect(code, `outbox row: ${content}`).toBeTruthy();
    return { smsId: String(sent.id), code: code! };
  }

  const smsGrant = (query: Record<string, string>) => new Api(server.url).grant({ grant_type: 'sms_code', ...query });

  test('the outbox holds the code, and the sms_code grant signs the phone user in', async () => {
    const { smsId, code } = await sendCode();
    const reply = await smsGrant({ phone: PHONE, code, smsId });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ account: 'admin', tenant_id: '000000', token_type: 'bearer' });
    // The same code works once.
    const again = await smsGrant({ phone: PHONE, code, smsId });
    expect(again.status).toBe(400);
    expect(again.body.access_token).toBeUndefined();
  });

  test('a wrong code, another phone or another sms id is refused', async () => {
    const { smsId, code } = await sendCode();
    const wrong = await smsGrant({ phone: PHONE, code: code === '000000' ? '111111' : '000000', smsId });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toContain('验证码');
    expect((await smsGrant({ phone: '13900000000', code, smsId })).status).toBe(400);
    expect((await smsGrant({ phone: PHONE, code, smsId: '123' })).status).toBe(400);
  });

  test('a malformed phone is refused before anything is sent', async () => {
    const before = await server.services.store.count(server.services.m('sms-outbox'), '000000');
    const reply = await new Api(server.url).call('POST', '/blade-auth/oauth/sms/send-validate', { query: { tenantId: '000000', phone: '12345' }, token: null });
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toContain('手机号');
    expect(await server.services.store.count(server.services.m('sms-outbox'), '000000')).toBe(before);
  });

  test('a code sent in one tenant does not sign in to another', async () => {
    const { smsId, code } = await sendCode();
    const reply = await new Api(server.url, '100001').grant({ grant_type: 'sms_code', phone: PHONE, code, smsId });
    expect(reply.status).toBe(400);
    expect(reply.body.access_token).toBeUndefined();
  });
});
