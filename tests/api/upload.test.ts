/**
 * Acceptance 7: `POST /api/blade-resource/oss/endpoint/put-file` (multipart field `file`). Bad
 * types, oversized files, path-like names and content that is not what its extension says are
 * refused with a Chinese 400 and nothing stored; a real png is stored and served back byte-identical.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { Api, BASIC, expectOk, signedIn } from '../support/client.ts';
import { multipart, pngBytes } from '../support/files.ts';

const PUT = '/blade-resource/oss/endpoint/put-file';

describe.each(databases())('upload ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  /** Every file under the data directory's uploads folder. */
  function storedFiles(): string[] {
    const root = path.join(server.dataDir, 'uploads');
    if (!fs.existsSync(root)) return [];
    return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile());
  }
  const attachCount = () => server.services.store.count(server.services.m('attach'), '000000');

  async function upload(filename: string, content: Buffer, api: Api = admin) {
    const { body, contentType } = multipart('file', filename, content, 'image/png');
    return api.call('POST', PUT, { body, headers: { 'content-type': contentType } });
  }

  async function expectRefused(filename: string, content: Buffer, message: RegExp) {
    const files = storedFiles().length;
    const attaches = await attachCount();
    const reply = await upload(filename, content);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.code).toBe(400);
    expect(reply.body.success).toBe(false);
    expect(reply.body.msg).toMatch(message);
    expect(storedFiles().length, 'no file written').toBe(files);
    expect(await attachCount(), 'no attachment row').toBe(attaches);
  }

  test('a real png is stored and served back byte-identical from link', async () => {
    const png = pngBytes(3, 2);
    const before = await attachCount();
    const reply = await upload('照片.png', png);
    const data = expectOk(reply, 'upload');
    expect(data).toMatchObject({ originalName: '照片.png' });
    expect(typeof data.attachId).toBe('string');
    expect(data.link.startsWith(data.domain)).toBe(true);
    expect(data.link.endsWith(data.name)).toBe(true);
    expect(await attachCount()).toBe(before + 1);
    // Served to a signed-in user of the tenant: by the token header, or the token cookie an <img> sends.
    const res = await fetch(data.link, { headers: { 'blade-auth': `bearer ${admin.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect((await fetch(data.link, { headers: { cookie: `saber-access-token=${admin.token}` } })).status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    // The attachment row points at the same object.
    const attach = expectOk(await admin.get('/blade-resource/attach/detail', { id: data.attachId }));
    expect(attach.link).toBe(data.link);
    expect(Number(attach.attachSize)).toBe(png.length);
  });

  test('an .exe is refused', async () => {
    await expectRefused('setup.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]), /类型/);
  });

  test('a 6 MB png is refused (5M limit)', async () => {
    const big = Buffer.concat([pngBytes(), Buffer.alloc(6 * 1024 * 1024, 7)]);
    await expectRefused('big.png', big, /5M/);
  });

  test('a file named ../../x.png is refused and nothing is written outside the uploads folder', async () => {
    const png = pngBytes();
    await expectRefused('../../x.png', png, /文件名/);
    await expectRefused('..\\..\\x.png', png, /文件名/);
    await expectRefused('/etc/x.png', png, /文件名/);
    expect(fs.existsSync(path.join(server.dataDir, 'x.png'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(server.dataDir), 'x.png'))).toBe(false);
  });

  test('a .png whose bytes are not a PNG is refused', async () => {
    await expectRefused('fake.png', Buffer.from('<html><script>alert(1)</script></html>'), /不符/);
  });

  test('an upload needs a signed-in caller and the field name file', async () => {
    const anonymous = new Api(server.url);
    const { body, contentType } = multipart('file', 'a.png', pngBytes());
    const res = await fetch(new URL(`/api${PUT}`, server.url), { method: 'POST', headers: { authorization: BASIC, 'content-type': contentType }, body });
    expect(res.status).toBe(401);
    expect(anonymous.token).toBeUndefined();
    const wrongField = multipart('upload', 'a.png', pngBytes());
    const reply = await admin.call('POST', PUT, { body: wrongField.body, headers: { 'content-type': wrongField.contentType } });
    expect(reply.status).toBe(400);
  });

  test('a file is not served to strangers or other tenants; a signed link opens it until it expires', async () => {
    const data = expectOk(await upload('合同.png', pngBytes(2, 2)), 'upload');
    const anonymous = await fetch(data.link);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).msg).toBe('请先登录');
    // A user of another tenant gets no file at all (as if none existed).
    const other = await signedIn(server.url, '100001', 'admin', 'admin');
    expect((await fetch(data.link, { headers: { 'blade-auth': `bearer ${other.token}` } })).status).toBe(404);
    const signed = expectOk<{ link: string; expires: number }>(await admin.get('/blade-resource/oss/endpoint/sign-link', { link: data.link, expires: 60 }));
    expect((await fetch(new URL(signed.link, server.url))).status).toBe(200);
    // A signature altered, or for another expiry, or past its expiry, opens nothing.
    const url = new URL(signed.link, server.url);
    url.searchParams.set('expires', String(signed.expires + 1));
    expect((await fetch(url)).status).toBe(404);
    const past = Math.floor(Date.now() / 1000) - 1;
    const { fileLinkSignature } = await import('../../src/server/files/routes.ts');
    const expired = new URL(data.link);
    expired.search = `?expires=${past}&signature=${fileLinkSignature(server.services, data.name, past)}`;
    expect((await fetch(expired)).status).toBe(404);
    // Another tenant cannot sign this tenant's file.
    expect((await other.get('/blade-resource/oss/endpoint/sign-link', { link: data.link })).body.msg).toBe('文件不存在');
  });

  test('stored files are only served under their exact key', async () => {
    const res = await fetch(new URL('/oss/..%2F..%2Fjwt-secret', server.url));
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toContain(fs.readFileSync(path.join(server.dataDir, 'jwt-secret'), 'utf8').trim());
  });
});
