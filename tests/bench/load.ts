/** A bounded closed-loop load generator against this machine's loopback only. */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export async function load(
  fire: () => Promise<Response>,
  opts: { concurrency: number; seconds: number; check?: (res: Response, body: string) => boolean },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + opts.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const res = await fire();
        const body = await res.text();
        if (opts.check && !opts.check(res, body)) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}

export function show(name: string, r: LoadResult) {
  console.log(
    `${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.requests} requests in ${r.seconds.toFixed(1)} s, ${r.errors} errors)`,
  );
}

/**
 * The same closed loop, run on a worker thread so the load generator's own HTTP client work does
 * not share the event loop of a server living in this process. Requests cycle through `urls`
 * (several distinct filters defeat any per-query cache), each with the same headers.
 */
export async function loadInWorker(
  urls: string[],
  opts: { concurrency: number; seconds: number; headers?: Record<string, string>; expect?: string },
): Promise<LoadResult> {
  const { Worker } = await import('node:worker_threads');
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { urls, headers, concurrency, seconds, expect } = workerData;
    (async () => {
      const latencies = [];
      let errors = 0;
      let next = 0;
      const started = performance.now();
      const deadline = started + seconds * 1000;
      const worker = async () => {
        while (performance.now() < deadline) {
          const url = urls[next++ % urls.length];
          const t0 = performance.now();
          try {
            const res = await fetch(url, { headers });
            const body = await res.text();
            if (!res.ok || (expect && !body.includes(expect))) errors++;
          } catch {
            errors++;
          }
          latencies.push(performance.now() - t0);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      parentPort.postMessage({ latencies, errors, seconds: (performance.now() - started) / 1000 });
    })();
  `;
  const worker = new Worker(source, {
    eval: true,
    workerData: { urls, headers: opts.headers ?? {}, concurrency: opts.concurrency, seconds: opts.seconds, expect: opts.expect },
  });
  const { latencies, errors, seconds } = await new Promise<{ latencies: number[]; errors: number; seconds: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}
