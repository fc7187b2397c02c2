/** What the browser benches share: a production build of a bench page, a static server, percentiles. */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BENCH_DIR = path.join(ROOT, 'tests/bench/client');

export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** KiB of the files (paths under `dir`), each gzipped at level 9, each counted once. */
export function gzipKiB(dir: string, files: Iterable<string>): number {
  let bytes = 0;
  for (const file of new Set(files)) {
    const full = path.join(dir, file);
    if (fs.existsSync(full)) bytes += gzipSync(fs.readFileSync(full), { level: 9 }).length;
  }
  return bytes / 1024;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves a folder on loopback (no compression: sizes are reported from the files). */
export function serveDir(dir: string): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

/** Builds bench pages of tests/bench/client (their folder is the root) into `outDir`, never dist/. */
export async function buildBenchPages(outDir: string, pages: string[]): Promise<void> {
  await build({
    configFile: path.join(ROOT, 'vite.config.ts'),
    root: BENCH_DIR,
    mode: 'production',
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: { input: Object.fromEntries(pages.map((page) => [path.basename(page, '.html'), path.join(BENCH_DIR, page)])) },
    },
  });
}
