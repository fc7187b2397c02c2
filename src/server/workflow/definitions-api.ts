/**
 * 流程部署 (blade-flow/manager) and 发起事务 (work/start-list): deployed definitions, their state
 * (active / suspended), uploads of .bpmn files, deletion of deployments, and the XML of a
 * definition for the diagram (process/resource-view).
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller, param, type Ctx } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { idsParam, valueParam } from '../system/params.ts';
import { RawReply } from '../engine/raw.ts';
import { status } from '../http/envelope.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { definitionById, deployXml, ensureDefaults } from './definitions.ts';
import { ACTIVE, definitions, INSTANCE_RUNNING, instances, pageOf, paging, processWire, SUSPENDED } from './tables.ts';

/** Largest .bpmn file accepted (a model with its diagram is a few dozen KB). */
const MAX_BPMN_BYTES = 2 * 1024 * 1024;

function like(value: string | undefined, text: unknown): boolean {
  return !value || String(text ?? '').toLowerCase().includes(value.toLowerCase());
}

/** Reads every uploaded file part (fields file or files) and the form fields. */
async function uploadedFiles(ctx: Ctx): Promise<{ files: { name: string; xml: string }[]; fields: Record<string, string> }> {
  if (!ctx.req.isMultipart()) throw badRequest('请使用multipart/form-data上传流程文件，字段名为file或files');
  const files: { name: string; xml: string }[] = [];
  const fields: Record<string, string> = {};
  for await (const part of ctx.req.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' && part.fieldname !== 'files') {
        await part.toBuffer();
        continue;
      }
      const content = await part.toBuffer();
      const name = part.filename || 'process.bpmn';
      if (/[\\/]/.test(name)) throw badRequest('文件名不能包含路径');
      if (!/\.(bpmn|bpmn20\.xml|xml)$/i.test(name)) throw badRequest(`文件「${name}」不是流程文件，请上传 .bpmn 或 .bpmn20.xml 文件`);
      if (part.file.truncated || content.length > MAX_BPMN_BYTES) throw badRequest(`流程文件「${name}」不能超过2M`);
      files.push({ name, xml: content.toString('utf8') });
    } else {
      fields[part.fieldname] = String(part.value ?? '');
    }
  }
  return { files, fields };
}

export function registerDefinitionHandlers(services: Services) {
  const { store } = services;

  /** manager list: every version, newest deployment first; key / name / category filters. */
  services.register('flowDeployment.list', async (ctx) => {
    const caller = mustCaller(ctx);
    await ensureDefaults(services, caller.tenantId);
    const { current, size } = paging(ctx.params);
    const where: Row = {};
    const category = param(ctx, 'category', 'category_equal');
    if (category) where.category = category;
    const key = param(ctx, 'key', 'processKey', 'processKey_equal');
    const name = param(ctx, 'name');
    const rows = (await store.find(definitions(services), caller.tenantId, { where, orderBy: [{ column: 'deployment_time', dir: 'desc' }, { column: 'id', dir: 'desc' }] }))
      .filter((r) => like(key, r.processKey) && like(name, r.name));
    return pageOf(rows.slice((current - 1) * size, current * size).map(processWire), rows.length, current, size);
  });

  /** start-list: the latest version of each key, when it is active (category, name filters). */
  services.register('flowWork.startList', async (ctx) => {
    const caller = mustCaller(ctx);
    await ensureDefaults(services, caller.tenantId);
    const { current, size } = paging(ctx.params);
    const category = param(ctx, 'category', 'category_equal');
    const rows = await store.find(definitions(services), caller.tenantId, {
      where: category ? { category } : {},
      orderBy: [{ column: 'process_key', dir: 'asc' }, { column: 'process_version', dir: 'desc' }],
    });
    const latest = new Map<string, Row>();
    for (const r of rows) if (!latest.has(String(r.processKey))) latest.set(String(r.processKey), r);
    const list = [...latest.values()].filter((r) => Number(r.suspensionState) === ACTIVE && like(param(ctx, 'name'), r.name));
    return pageOf(list.slice((current - 1) * size, current * size).map(processWire), list.length, current, size);
  });

  /** change-state (state active|suspend, processId): the definition and its running instances; answers a message as BladeX does. */
  services.register('flowDeployment.changeState', async (ctx) => {
    const caller = mustCaller(ctx);
    const state = valueParam(ctx, 'state');
    if (state !== 'active' && state !== 'suspend') throw badRequest('state 只能为 active（激活）或 suspend（挂起）');
    const definition = await definitionById(services, caller.tenantId, valueParam(ctx, 'processId', 'processDefinitionId', 'id'));
    const target = state === 'active' ? ACTIVE : SUSPENDED;
    const word = state === 'active' ? '激活' : '挂起';
    if (Number(definition.suspensionState) === target) return new RawReply(status(true, `流程「${definition.name}」（版本${definition.processVersion}）已是${word}状态，无需操作`));
    await store.transaction(async () => {
      const changed = await store.guardedUpdate(definitions(services), caller, String(definition.id), { suspensionState: target }, { version: Number(definition.version) });
      if (!changed) throw badRequest('流程定义已被他人修改，请刷新后重试');
      const running = await store.find(instances(services), caller.tenantId, { where: { processDefinitionId: String(definition.id), instanceState: INSTANCE_RUNNING } });
      for (const instance of running) await store.update(instances(services), caller, String(instance.id), { suspensionState: target }, { includeReadonly: true });
    });
    return new RawReply(status(true, `${word}流程「${definition.name}」（版本${definition.processVersion}）成功`));
  });

  /** deploy-upload: each .bpmn file (field file or files) checked and deployed, all or none. */
  services.register('flowDeployment.upload', async (ctx) => {
    const caller = mustCaller(ctx);
    await ensureDefaults(services, caller.tenantId);
    const { files, fields } = await uploadedFiles(ctx);
    if (!files.length) throw badRequest('请选择要部署的流程文件');
    const category = fields.category || valueParam(ctx, 'category') || undefined;
    const deployed = await store.transaction(async () => {
      const out: Row[] = [];
      for (const file of files) {
        try {
          out.push(await deployXml(services, caller, { xml: file.xml, category, resourceName: file.name }));
        } catch (error) {
          if (files.length > 1 && error instanceof Error) error.message = `${file.name}：${error.message}`;
          throw error;
        }
      }
      return out;
    });
    return deployed.map(processWire);
  });

  /** delete-deployment (deploymentId or deploymentIds): refused while any instance of it runs. */
  services.register('flowDeployment.remove', async (ctx) => {
    const caller = mustCaller(ctx);
    const ids = [...new Set(idsParam(ctx, 'deploymentIds', 'deploymentId'))];
    if (!ids.length) throw badRequest('缺少参数 deploymentId');
    await store.transaction(async () => {
      const rows = await store.find(definitions(services), caller.tenantId, { where: { deploymentId: ids } });
      if (!rows.length) throw notFound('部署不存在或已被删除');
      const running = await store.count(instances(services), caller.tenantId, { where: { processDefinitionId: rows.map((r) => String(r.id)), instanceState: INSTANCE_RUNNING } });
      if (running) throw badRequest(`该部署还有${running}个运行中的流程实例，请先办结或在流程跟踪中删除后再删除部署`);
      await store.softRemove(definitions(services), caller, rows.map((r) => String(r.id)));
    });
    return undefined;
  });

  /** resource-view: the deployed XML (processDefinitionId, or the version a processInstanceId runs). */
  services.register('flowDeployment.resourceView', async (ctx) => {
    const caller = mustCaller(ctx);
    let definitionId = param(ctx, 'processDefinitionId');
    const instanceId = param(ctx, 'processInstanceId');
    if (!definitionId && instanceId) {
      const instance = await store.get(instances(services), caller.tenantId, instanceId);
      if (!instance) throw notFound('流程实例不存在或已被删除');
      definitionId = String(instance.processDefinitionId);
    }
    const definition = await definitionById(services, caller.tenantId, definitionId);
    ctx.reply.header('content-type', 'application/xml; charset=utf-8');
    ctx.reply.header('last-modified', new Date(String(definition.deploymentTime ?? formatDateTime()).replace(' ', 'T')).toUTCString());
    return new RawReply(String(definition.xml ?? ''));
  });
}
