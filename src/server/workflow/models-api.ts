/**
 * 模型管理 (blade-flow/model): models are BPMN XML stored in erp_flow_model. list is the generic
 * page (after the tenant's default models are made, without the XML), detail and remove are the
 * generic operations; submit checks the XML before saving; deploy makes the model's XML the next
 * version of its process definition.
 */
import type { Services } from '../services.ts';
import type { Row } from '../engine/store.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest, notFound } from '../errors.ts';
import { insertRecord, updateRecord } from '../engine/records.ts';
import { valueParam } from '../system/params.ts';
import { runOp } from '../engine/ops.ts';
import { parseBpmn } from './bpmn.ts';
import { deployXml, ensureDefaults } from './definitions.ts';
import { flowModels, processWire } from './tables.ts';

export function registerModelHandlers(services: Services) {
  const { store } = services;

  /** list: the generic page (map filters) once the tenant's default models exist; without the XML. */
  services.register('flowModel.list', async (ctx, model) => {
    const caller = mustCaller(ctx);
    await ensureDefaults(services, caller.tenantId);
    const data = (await runOp(ctx, model, { path: 'list', method: 'GET', op: 'page', filters: 'map' })).data as { records: Row[] };
    data.records = data.records.map(({ xml: _xml, ...row }) => (void _xml, row));
    return data;
  });

  /** submit: add (no id) or update (id + version) a model whose XML passes the checks. */
  services.register('flowModel.submit', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const input = { ...((ctx.body && typeof ctx.body === 'object' ? ctx.body : ctx.params) as Row) };
    const { process } = await parseBpmn(String(input.xml ?? ''));
    const key = String(input.modelKey ?? '').trim();
    if (key && key !== process.key) {
      throw badRequest(`模型标识「${key}」与流程文件中的流程标识（process id）「${process.key}」不一致`, { fieldErrors: { modelKey: '模型标识应与流程文件中的 process id 一致' } });
    }
    input.modelKey = process.key;
    if (!input.name) input.name = process.name;
    if (input.id) {
      await services.perms.require(caller, 'flowModel_edit');
      return updateRecord(services, caller, model, input);
    }
    await services.perms.require(caller, 'flowModel_add');
    return insertRecord(services, caller, model, input);
  });

  /** deploy (modelId, category): the model's XML becomes the next version of its definition. */
  services.register('flowModel.deploy', async (ctx) => {
    const caller = mustCaller(ctx);
    await ensureDefaults(services, caller.tenantId);
    const modelId = valueParam(ctx, 'modelId') ?? valueParam(ctx, 'id');
    if (!modelId) throw badRequest('缺少参数 modelId');
    const row = await store.get(flowModels(services), caller.tenantId, modelId);
    if (!row) throw notFound('模型不存在或已被删除');
    const category = valueParam(ctx, 'category') || String(row.category ?? '') || undefined;
    const definition = await store.transaction(async () => {
      const deployed = await deployXml(services, caller, { xml: String(row.xml ?? ''), category, modelId, resourceName: `${row.modelKey}.bpmn20.xml` });
      await store.update(flowModels(services), caller, modelId, { deployedVersion: deployed.processVersion, deployTime: deployed.deploymentTime }, { includeReadonly: true });
      return deployed;
    });
    return processWire(definition);
  });
}
