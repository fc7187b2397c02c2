import fs from 'node:fs';
import path from 'node:path';
import type { DictSeed, MenuSeed, ResourceFile } from '../../shared/resource.ts';
import type { Chart } from '../../shared/accounts.ts';
import { resolveResource } from '../../shared/fragments.ts';
import { readFragments } from '../../shared/fragments-fs.ts';
import { ledgerModels } from '../posting/ledgers.ts';
import { buildModel, internalModel, type Model } from './model.ts';

/** Everything read from schemas/: resources, the menu tree and the dictionary seeds. */
export interface Registry {
  dir: string;
  resources: Map<string, ResourceFile>;
  models: Map<string, Model>;
  internal: InternalModels;
  menus: MenuSeed[];
  dicts: DictSeed[];
  /** The chart of accounts and statement layouts (schemas/accounts.json). */
  chart: Chart;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.name.endsWith('.json')) out.push(full);
  }
  return out.sort();
}

/** Folders of schemas/ that hold no resource files. */
export const NOT_RESOURCES = new Set(['meta', 'dicts', 'fragments']);

export function resourceFiles(dir: string): string[] {
  return walk(dir).filter((file) => {
    const rel = path.relative(dir, file).split(path.sep);
    return rel.length === 2 && !NOT_RESOURCES.has(rel[0]);
  });
}

export function loadRegistry(dir: string): Registry {
  const resources = new Map<string, ResourceFile>();
  const models = new Map<string, Model>();
  const fragments = readFragments(dir);
  for (const file of resourceFiles(dir)) {
    const resource = resolveResource(JSON.parse(fs.readFileSync(file, 'utf8')) as ResourceFile, fragments);
    if (resources.has(resource.resource)) throw new Error(`${file}: resource ${resource.resource} declared twice`);
    resources.set(resource.resource, resource);
    models.set(resource.resource, buildModel(resource));
  }
  const menus = (JSON.parse(fs.readFileSync(path.join(dir, 'menus.json'), 'utf8')) as { menus: MenuSeed[] }).menus;
  const dicts: DictSeed[] = [];
  const dictDir = path.join(dir, 'dicts');
  if (fs.existsSync(dictDir)) {
    for (const file of walk(dictDir)) dicts.push(...(JSON.parse(fs.readFileSync(file, 'utf8')) as { dicts: DictSeed[] }).dicts);
  }
  const chart = JSON.parse(fs.readFileSync(path.join(dir, 'accounts.json'), 'utf8')) as Chart;
  return { dir, resources, models, internal: internalModels(), menus, dicts, chart };
}

/** Tables the hand-written parts own (sessions, grants, one-time codes); same DDL rules as resources. */
function internalModels() {
  return {
    session: internalModel('blade_session', {
      userId: ['string', 32],
      clientId: ['string', 64],
      refreshJti: ['string', 64],
      expireTime: ['string', 19],
      revoked: 'integer',
    }),
    loginFail: internalModel('blade_login_fail', {
      account: ['string', 64],
      failCount: 'integer',
      lockedUntil: ['string', 19],
    }),
    captcha: internalModel('blade_captcha', { code: ['string', 16], expireTime: ['string', 19] }),
    smsCode: internalModel('blade_sms_code', { phone: ['string', 20], code: ['string', 10], expireTime: ['string', 19], used: 'integer' }),
    roleMenu: internalModel('blade_role_menu', { roleId: ['string', 32], menuId: ['string', 32] }),
    roleScope: internalModel('blade_role_scope', {
      roleId: ['string', 32],
      scopeId: ['string', 32],
      scopeCategory: 'integer',
    }),
    roleMenuApp: internalModel('blade_role_menu_app', { roleId: ['string', 32], menuAppId: ['string', 32] }),
    topMenuSetting: internalModel('blade_top_menu_setting', { topMenuId: ['string', 32], menuId: ['string', 32] }),
    userDepot: internalModel('blade_user_depot', { userId: ['string', 32], depotId: ['string', 32], isDefault: 'integer' }),
    // One counter per key: two first calls racing to create it must not both start at 1.
    codeCounter: internalModel('erp_code_counter', { counterKey: ['string', 200], current: 'integer' }, [
      { fields: ['counterKey'], message: '编码计数器已存在' },
    ]),
    userBarter: internalModel('blade_user_barter', { userId: ['string', 32], bartererId: ['string', 32] }),
    // Exports run as jobs (files/export-jobs.ts). `status` is every table's integer column, so the
    // job's running/done/failed/cancelled is `state` (answered as status).
    exportJob: internalModel(
      'erp_export_job',
      {
        userId: ['string', 32],
        resource: ['string', 64],
        endpoint: ['string', 200],
        params: 'text',
        fileName: ['string', 200],
        state: ['string', 16],
        rows: 'integer',
        total: 'integer',
        error: 'text',
        fileKey: ['string', 200],
        finishedTime: ['string', 19],
        node: ['string', 300],
      },
      undefined,
      { title: '导出任务', indexes: [['userId', 'createTime'], ['state']] },
    ),
    ...ledgerModels(),
  };
}

export type InternalModels = ReturnType<typeof internalModels>;

export function model(registry: Registry, name: string): Model {
  const m = registry.models.get(name);
  if (!m) throw new Error(`unknown resource ${name}`);
  return m;
}
