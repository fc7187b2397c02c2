/**
 * Answers go out compressed when the browser accepts it (brotli first, then gzip), except what is
 * packed already: a large JSON answer (the administrator's buttons, ~270 KB; a 1,000-line bill's
 * is ~935 KB: the bill bench's `link` setup) shrinks many times over and decodes to the same
 * envelope; small answers, spreadsheets and the build's precompressed assets are sent as they are.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { BASIC, signedIn, type Api } from '../support/client.ts';
import { loadResources, pathOf } from '../support/resources.ts';

interface RawReply {
  status: number;
  encoding?: string;
  type?: string;
  bytes: Buffer;
}

/** A GET whose body is read as it comes over the wire (fetch would inflate it unasked). */
function rawGet(base: string, urlPath: string, headers: Record<string, string>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(urlPath, base), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            type: res.headers['content-type'],
            bytes: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('compressed answers', () => {
  let server: TestServer;
  let api: Api;
  const bigPath = '/api/blade-system/menu/buttons';
  let clientDir = '';
  const asset = 'x'.repeat(8_000);
  const assetBr = zlib.brotliCompressSync(Buffer.from(asset));

  beforeAll(async () => {
    // A built client of two files: the index and one asset with its .br beside it, as the build writes.
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'erp-compress-client-'));
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), `<!doctype html><title>ERP</title>${'<!-- -->'.repeat(500)}`);
    fs.writeFileSync(path.join(clientDir, 'assets/app-1.js'), asset);
    fs.writeFileSync(path.join(clientDir, 'assets/app-1.js.br'), assetBr);
    server = await startTestServer({ clientDir });
    api = await signedIn(server.url);
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  const auth = () => ({ authorization: BASIC, 'blade-auth': `bearer ${api.token}` });

  test('a large answer in brotli when accepted, the same envelope as sent plain', async () => {
    const plain = await rawGet(server.url, bigPath, auth());
    expect(plain.status).toBe(200);
    expect(plain.encoding).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(100_000);
    const envelope = JSON.parse(plain.bytes.toString('utf8'));
    expect(envelope.success).toBe(true);
    expect(envelope.data.length).toBeGreaterThan(0);

    const br = await rawGet(server.url, bigPath, { ...auth(), 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.encoding).toBe('br');
    expect(br.type).toContain('application/json');
    expect(br.bytes.length * 5).toBeLessThan(plain.bytes.length);
    expect(JSON.parse(zlib.brotliDecompressSync(br.bytes).toString('utf8'))).toEqual(envelope);

    const gzip = await rawGet(server.url, bigPath, { ...auth(), 'accept-encoding': 'gzip' });
    expect(gzip.encoding).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.bytes).toString('utf8'))).toEqual(envelope);
  });

  test('small answers and spreadsheets go as they are', async () => {
    const small = await rawGet(server.url, `/api/blade-system/dict/dictionary?code=sex`, { ...auth(), 'accept-encoding': 'br' });
    expect(small.status).toBe(200);
    expect(small.bytes.length).toBeLessThan(2048);
    expect(small.encoding).toBeUndefined();

    const customer = loadResources().find((r) => r.resource === 'customer')!;
    const exportCall = customer.api.endpoints.find((e) => e.op === 'export')!;
    const sheet = await rawGet(server.url, `/api${pathOf(customer, exportCall.path)}`, { ...auth(), 'accept-encoding': 'br' });
    expect(sheet.status).toBe(200);
    expect(sheet.type).toContain('spreadsheetml');
    expect(sheet.encoding).toBeUndefined();
    // An xlsx is a zip: it starts with the zip signature, not a brotli stream.
    expect(sheet.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  test("the build's precompressed asset is sent once compressed, not twice", async () => {
    const reply = await rawGet(server.url, '/assets/app-1.js', { 'accept-encoding': 'br' });
    expect(reply.status).toBe(200);
    expect(reply.encoding).toBe('br');
    expect(reply.bytes.equals(assetBr)).toBe(true);
    expect(zlib.brotliDecompressSync(reply.bytes).toString('utf8')).toBe(asset);
    // The single page for a client route: compressed here, as it has no file of its own beside it.
    const page = await rawGet(server.url, '/base/customer', { 'accept-encoding': 'gzip' });
    expect(page.status).toBe(200);
    expect(zlib.gunzipSync(page.bytes).toString('utf8')).toContain('<title>ERP</title>');
    expect(page.encoding).toBe('gzip');
  });
});
