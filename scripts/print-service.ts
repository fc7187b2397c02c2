/**
 * The reference local print service (label printing, spec 000 §2): what the browser talks to on
 * this machine to print labels without the print dialog. A real installation puts a service
 * speaking the same protocol in front of a label printer; this one writes each job as a PDF, so
 * the tests and a user can try label printing anywhere. Run: `npm run print-service`.
 *
 * Protocol (HTTP + JSON on 127.0.0.1, CORS open to the ERP's origin):
 *   GET  /version  → { name, version, protocol: 1, printers: ["PDF"] }
 *   POST /print    { html, paper: { width, height } (mm), copies?, title?, printer? }
 *                  → { ok: true, jobId, file, pages, copies } | 400 { ok: false, msg }
 *   GET  /jobs     → the last 50 jobs, newest first
 * The page's own CSS lays the labels out, one label a page; the service prints the pages at the
 * paper size given. Environment: PRINT_SERVICE_PORT (18000; 0 picks a free port), PRINT_OUT_DIR
 * (./print-output), PRINT_ALLOWED_ORIGIN (*), CHROMIUM (/usr/bin/chromium).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const SERVICE_VERSION = '1.0.0';
const MAX_BODY = 5 * 1024 * 1024;

interface Job {
  jobId: string;
  title: string;
  file: string;
  pages: number;
  copies: number;
  paper: { width: number; height: number };
  time: string;
}

export interface PrintService {
  url: string;
  outDir: string;
  jobs: Job[];
  close(): Promise<void>;
}

class Refusal extends Error {}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Refusal('打印内容不能超过5M'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function millimetres(value: unknown, what: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 10 || n > 500) throw new Refusal(`${what}应在10到500毫米之间`);
  return n;
}

export async function startPrintService(opts: { port?: number; outDir?: string; origin?: string; chromiumPath?: string } = {}): Promise<PrintService> {
  const outDir = path.resolve(opts.outDir ?? process.env.PRINT_OUT_DIR ?? 'print-output');
  const origin = opts.origin ?? process.env.PRINT_ALLOWED_ORIGIN ?? '*';
  const executablePath = opts.chromiumPath ?? process.env.CHROMIUM ?? '/usr/bin/chromium';
  fs.mkdirSync(outDir, { recursive: true });
  const jobs: Job[] = [];
  let seq = 0;
  let browser: Promise<Browser> | undefined;
  // Jobs print one after another, as a printer takes them.
  let queue: Promise<unknown> = Promise.resolve();

  const print = async (input: Record<string, unknown>): Promise<Job> => {
    const html = input.html;
    if (typeof html !== 'string' || !html.trim()) throw new Refusal('缺少打印内容');
    const paperIn = (input.paper ?? {}) as Record<string, unknown>;
    const paper = { width: millimetres(paperIn.width, '纸张宽度'), height: millimetres(paperIn.height, '纸张高度') };
    const copies = input.copies === undefined ? 1 : Number(input.copies);
    if (!Number.isInteger(copies) || copies < 1 || copies > 100) throw new Refusal('打印份数应为1到100的整数');
    browser ??= chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const page = await (await browser).newPage();
    try {
      // Labels are self-contained: nothing is fetched from the network.
      await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
      await page.setContent(html, { waitUntil: 'load' });
      const jobId = `${Date.now()}-${++seq}`;
      const file = path.join(outDir, `${jobId}.pdf`);
      const pdf = await page.pdf({ path: file, width: `${paper.width}mm`, height: `${paper.height}mm`, printBackground: true, margin: { top: '0', right: '0', bottom: '0', left: '0' } });
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
      const job: Job = { jobId, title: String(input.title ?? ''), file, pages, copies, paper, time: new Date().toISOString() };
      jobs.unshift(job);
      jobs.splice(50);
      return job;
    } finally {
      await page.close();
    }
  };

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'content-type',
        // Chrome asks a page on another address before it may call this machine (Private Network Access).
        'access-control-allow-private-network': 'true',
      });
      res.end(status === 204 ? undefined : JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'OPTIONS') return send(204, null);
    if (req.method === 'GET' && url.pathname === '/version') return send(200, { name: 'erp-print-service', version: SERVICE_VERSION, protocol: 1, printers: ['PDF'] });
    if (req.method === 'GET' && url.pathname === '/jobs') return send(200, jobs);
    if (req.method === 'POST' && url.pathname === '/print') {
      const run = queue.then(async () => print(JSON.parse(await readBody(req)) as Record<string, unknown>));
      queue = run.catch(() => undefined);
      run.then(
        (job) => send(200, { ok: true, ...job }),
        (error: unknown) => send(error instanceof Refusal || error instanceof SyntaxError ? 400 : 500, { ok: false, msg: error instanceof Refusal ? error.message : error instanceof SyntaxError ? '打印请求不是有效的 JSON' : `打印失败：${(error as Error).message}` }),
      );
      return undefined;
    }
    return send(404, { ok: false, msg: '没有这个接口' });
  });

  const port = opts.port ?? Number(process.env.PRINT_SERVICE_PORT ?? 18000);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    outDir,
    jobs,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (browser) await (await browser).close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const service = await startPrintService();
  console.log(`打印服务 ${SERVICE_VERSION} 已启动：${service.url}，PDF 写入 ${service.outDir}`);
  const stop = () => void service.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
