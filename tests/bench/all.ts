/**
 * `npm run bench`: every benchmark in turn, each printing its own figures. Never asserts time.
 * Pick some with arguments: `npm run bench -- platform list`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '../..');
const suites: Record<string, string[]> = {
  platform: ['tests/bench/run.ts'],
  list: ['tests/bench/list-million.ts', 'customer', 'bartererName', '1000000'],
  form: ['tests/bench/form-bench.ts'],
  bill: ['tests/bench/bill-bench.ts'],
  shell: ['tests/bench/shell-bench.ts'],
  client: ['tests/bench/client-bench.ts'],
  money: ['tests/bench/money-bench.ts'],
  'posting-property': ['tests/bench/documents-property.ts'],
  posting: ['tests/bench/posting-bench.ts'],
  reports: ['tests/bench/reports-bench.ts'],
};
const chosen = process.argv.slice(2).filter((a) => a in suites);
for (const name of chosen.length ? chosen : Object.keys(suites)) {
  const [script, ...args] = suites[name];
  if (!fs.existsSync(path.join(root, script))) continue;
  console.log(`\n=== ${name}: ${script} ${args.join(' ')}`);
  spawnSync(path.join(root, 'node_modules/.bin/tsx'), [script, ...args], { cwd: root, stdio: 'inherit' });
}
