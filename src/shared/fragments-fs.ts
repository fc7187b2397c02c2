/** Node-only: reads schemas/fragments/*.json for the server and the generators (the client bundles them through the page manifest). */
import fs from 'node:fs';
import path from 'node:path';
import type { Fragment } from './fragments.ts';

export function readFragments(schemasDir: string): Map<string, Fragment> {
  const dir = path.join(schemasDir, 'fragments');
  const out = new Map<string, Fragment>();
  if (!fs.existsSync(dir)) return out;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const fragment = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Fragment;
    if (fragment.fragment !== path.basename(file, '.json')) throw new Error(`schemas/fragments/${file}: "fragment" should be ${path.basename(file, '.json')}`);
    out.set(fragment.fragment, fragment);
  }
  return out;
}
