/**
 * Deployed process definitions: deploying a checked BPMN file as the next version of its key,
 * finding the version a new instance uses (the latest active one), and the default models every
 * tenant gets on first use (请假流程, key Leave) so the leave process works out of the box.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Services } from '../services.ts';
import type { Actor, Row } from '../engine/store.ts';
import { nextId } from '../db/ids.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { parseBpmn } from './bpmn.ts';
import { ACTIVE, definitions, flowModels, SUSPENDED } from './tables.ts';

const MODELS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'models');

/** Models every tenant starts with: key, file, category. */
const DEFAULT_MODELS = [
  { key: 'Leave', file: 'leave.bpmn', category: 'office', description: '请假申请的审批流程（部门审批，超过3天再经人事审批）' },
  { key: 'BillApproval', file: 'bill-approval.bpmn', category: 'bill', description: '审批设置中启用了审批的单据：提交时发起，由设置的审批人办理，同意即审核通过，驳回即驳回单据' },
];

export interface DeployInput {
  xml: string;
  category?: string;
  resourceName?: string;
  modelId?: string;
}

/** Checks a BPMN file and deploys it as the next version of its process key; answers the definition row. */
export async function deployXml(services: Services, actor: Actor, input: DeployInput): Promise<Row> {
  const { process } = await parseBpmn(input.xml);
  const { store } = services;
  const model = definitions(services);
  return store.transaction(async () => {
    const versions = await store.find(model, actor.tenantId, { where: { processKey: process.key }, orderBy: [{ column: 'process_version', dir: 'desc' }], limit: 1 });
    const version = Number(versions[0]?.processVersion ?? 0) + 1;
    const values: Row = {
      processKey: process.key,
      name: process.name,
      category: input.category || versions[0]?.category || 'other',
      processVersion: version,
      deploymentId: nextId(),
      resourceName: input.resourceName || `${process.key}.bpmn20.xml`,
      description: process.documentation.slice(0, 1000),
      suspensionState: ACTIVE,
      deploymentTime: formatDateTime(),
      modelId: input.modelId ?? '',
      xml: input.xml.trim(),
    };
    // Two deployments of one key at once: the unique (key, version) index lets one through.
    const row = await store.insert(model, actor, values, { includeReadonly: true }).catch((error: unknown) => {
      if (/unique|duplicate/i.test(String((error as Error)?.message))) throw conflict(`流程「${process.name}」刚被他人部署了新版本，请重试`);
      throw error;
    });
    return (await store.get(model, actor.tenantId, String(row.id)))!;
  });
}

/** A definition of the tenant by id, or a Chinese refusal. */
export async function definitionById(services: Services, tenantId: string, id: string | undefined): Promise<Row> {
  if (!id) throw badRequest('缺少参数 processDefinitionId');
  const row = await services.store.get(definitions(services), tenantId, id);
  if (!row) throw notFound('流程定义不存在或已被删除');
  return row;
}

/** The version a new instance of `key` runs: the latest one (refused by assertStartable when suspended). */
export async function latestVersion(services: Services, tenantId: string, key: string): Promise<Row | undefined> {
  const rows = await services.store.find(definitions(services), tenantId, {
    where: { processKey: key },
    orderBy: [{ column: 'process_version', dir: 'desc' }],
    limit: 1,
  });
  return rows[0];
}

/** Whether a new instance may start on this definition. */
export function assertStartable(definition: Row) {
  if (Number(definition.suspensionState) === SUSPENDED) throw badRequest(`流程「${definition.name}」已挂起，不能发起`);
}

/** Per server (its services) and tenant: the defaults are checked once. */
const seeded = new WeakMap<Services, Map<string, Promise<void>>>();

/**
 * Creates and deploys the default models a tenant lacks (once per tenant and server; a tenant
 * that removed both a default model and its deployments gets it again on the next start).
 */
export function ensureDefaults(services: Services, tenantId: string): Promise<void> {
  let tenants = seeded.get(services);
  if (!tenants) seeded.set(services, (tenants = new Map()));
  let done = tenants.get(tenantId);
  if (!done) {
    done = seedDefaults(services, tenantId).catch((error: unknown) => {
      tenants.delete(tenantId);
      throw error;
    });
    tenants.set(tenantId, done);
  }
  return done;
}

async function seedDefaults(services: Services, tenantId: string): Promise<void> {
  const { store } = services;
  const actor: Actor = { tenantId, userId: '0' };
  for (const d of DEFAULT_MODELS) {
    const xml = fs.readFileSync(path.join(MODELS_DIR, d.file), 'utf8');
    const present = async () =>
      (await store.find(flowModels(services), tenantId, { where: { modelKey: d.key }, limit: 1 })).length > 0 ||
      (await store.find(definitions(services), tenantId, { where: { processKey: d.key }, limit: 1 })).length > 0;
    if (await present()) continue;
    await store.transaction(async () => {
      if (await present()) return;
      const { process } = await parseBpmn(xml);
      const model = await store.insert(flowModels(services), actor, { modelKey: d.key, name: process.name, category: d.category, description: d.description, xml });
      const definition = await deployXml(services, actor, { xml, category: d.category, modelId: String(model.id), resourceName: d.file });
      await store.update(flowModels(services), actor, String(model.id), { deployedVersion: definition.processVersion, deployTime: definition.deploymentTime }, { includeReadonly: true });
    }).catch(async (error: unknown) => {
      // Another node seeded the same tenant at the same moment: its rows stand.
      if (!(await present())) throw error;
    });
  }
}
