import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { REPO } from './resources.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGKILL to the whole process group (npx → tsx → node), as `kill -9` would. */
  kill9(): Promise<void>;
  /** SIGTERM and wait, for cleanup. */
  stop(): Promise<void>;
}

/**
 * Runs the real server as `npm start` does (`npx tsx src/server/main.ts`) in its own process
 * group, and resolves once it prints its URL.
 */
export async function spawnServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn('npx', ['tsx', 'src/server/main.ts'], {
    cwd: REPO,
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', ERP_SKIP_CLIENT_BUILD: '1', ERP_DEMO: '0', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += String(d)));
  child.stderr!.on('data', (d) => (log += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
    const check = () => {
      if (log.includes(`127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it started:\n${log}`));
    });
  });
  return {
    url,
    child,
    output: () => log,
    async kill9() {
      signalGroup('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
