import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The suite needs the production client. `npm test` builds it first; when the suite runs on its
 * own (or E2E_BUILD=1) and no build exists, build it here.
 */
export default function setup(): void {
  const built = fs.existsSync(path.join(root, 'dist/client/index.html'));
  if (built && process.env.E2E_BUILD !== '1') return;
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('vite build failed; the browser suite needs dist/client');
}
