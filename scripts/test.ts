/**
 * `npm test`: every suite, in order — schema lint, generated types current, typecheck, unit + API
 * (SQLite, and PostgreSQL when DATABASE_URL is set), client build, browser e2e — then one closing
 * line `N passed, N failed` with the real totals (CI reads it).
 * ERP_SKIP_E2E=1 skips the browser suite (it needs /usr/bin/chromium).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
let passed = 0;
let failed = 0;
const failures: string[] = [];

function step(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

/** A check that is one test: it passes or fails as a whole. */
function check(name: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv) {
  if (step(name, cmd, args, env)) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

/** A vitest run counts its own tests, read from its JSON report. */
function vitest(name: string, args: string[], env?: NodeJS.ProcessEnv) {
  const report = path.join(os.tmpdir(), `vitest-${process.pid}-${Date.now()}.json`);
  const ok = step(name, bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], env);
  if (!fs.existsSync(report)) {
    failed++;
    failures.push(`${name} (no report: the run crashed)`);
    return;
  }
  const data = JSON.parse(fs.readFileSync(report, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numTotalTests: number;
    testResults: { name: string; status: string; message?: string }[];
  };
  passed += data.numPassedTests;
  failed += data.numFailedTests;
  // A file that fails to load has no tests but is still a failure.
  const broken = data.testResults.filter((r) => r.status === 'failed' && r.message);
  if (data.numFailedTests) failures.push(`${name}: ${data.numFailedTests} failed`);
  if (broken.length && !data.numFailedTests) {
    failed += broken.length;
    failures.push(`${name}: ${broken.length} files failed to run`);
  }
  if (!ok && !data.numFailedTests && !broken.length) {
    failed++;
    failures.push(`${name}: exited non-zero`);
  }
  fs.rmSync(report, { force: true });
}

check('schema lint (npm run lint:schemas)', bin('tsx'), ['generators/lint.ts']);
check('generated types are current (npm run gen:types, --check)', bin('tsx'), ['generators/types.ts', '--check']);
check('generated meta-schema types are current (npm run gen:types, --check)', bin('tsx'), ['generators/meta-types.ts', '--check']);
check('generated page manifest is current (npm run gen:types, --check)', bin('tsx'), ['generators/manifest.ts', '--check']);
check('generated call table is current (npm run gen:types, --check)', bin('tsx'), ['generators/calls.ts', '--check']);
check('typecheck (tsgo)', bin('tsgo'), ['-p', 'tsconfig.json', '--noEmit']);
vitest(`unit + API tests (SQLite${process.env.DATABASE_URL ? ' + PostgreSQL' : ''})`, ['--config', 'vitest.config.ts']);

if (process.env.ERP_SKIP_E2E === '1') {
  console.log('\n(browser e2e skipped: ERP_SKIP_E2E=1)');
} else if (!fs.existsSync('/usr/bin/chromium')) {
  failed++;
  failures.push('browser e2e: /usr/bin/chromium missing (apt-get install -y chromium fonts-noto-cjk, or ERP_SKIP_E2E=1)');
} else {
  check('client build (vite build)', bin('vite'), ['build']);
  if (fs.existsSync(path.join(root, 'vitest.e2e.config.ts'))) vitest('browser e2e (Playwright + chromium)', ['--config', 'vitest.e2e.config.ts']);
}

console.log('');
for (const f of failures) console.log(`FAILED: ${f}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
