/**
 * 商城管理 saves a generic submit cannot do: 基础设置 is one row per tenant, made when the tenant is
 * set up and edited, never added (as 公司信息); 店铺装修's page layout is JSON text whose shape and
 * goods the server checks, so the mall never reads a page it cannot draw.
 */
import type { Services } from '../services.ts';
import type { Model } from '../engine/model.ts';
import type { Row } from '../engine/store.ts';
import type { EndpointDef } from '../../shared/resource.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../engine/ops.ts';
import { validateEntity } from '../engine/validate.ts';
import { applyDefaults, stripReadonly } from '../engine/records.ts';

const SUBMIT: EndpointDef = { path: 'submit', method: 'POST', op: 'submit' };
const MAX_BLOCKS = 50;
const MAX_IMAGES = 10;
const MAX_GOODS = 100;
const MAX_LINK = 500;
const MAX_TITLE = 50;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const bodyOf = (ctx: Ctx): Row => (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Row) : {});
const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
/** An uploaded file's link (/oss/…) or a web address. */
const isLink = (v: unknown) => typeof v === 'string' && v.length <= MAX_LINK && /^(\/\S+|https?:\/\/\S+)$/.test(v.trim());

/** Refuses with the message on the layout field, as a schema check would. */
function refuse(message: string): never {
  throw badRequest(message, { fieldErrors: { layout: message } });
}

function onlyKeys(block: Row, allowed: string[], at: string) {
  const extra = Object.keys(block).filter((k) => !allowed.includes(k));
  if (extra.length) refuse(`${at}有不认识的属性：${extra.join('、')}（只能有 ${allowed.join('、')}）`);
}

/** Goods ids a goods block names, checked for shape; answers them for the existence check. */
function goodsBlock(block: Row, at: string): string[] {
  onlyKeys(block, ['type', 'title', 'goodsIds'], at);
  if (typeof block.title !== 'string' || !block.title.trim()) refuse(`${at}（商品区）须填写标题 title`);
  if (block.title.length > MAX_TITLE) refuse(`${at}（商品区）的标题不能超过${MAX_TITLE}个字符`);
  const ids = block.goodsIds;
  if (!Array.isArray(ids) || !ids.length) refuse(`${at}（商品区）须有至少一个商品 goodsIds`);
  if (ids.length > MAX_GOODS) refuse(`${at}（商品区）最多${MAX_GOODS}个商品`);
  const seen = new Set<string>();
  ids.forEach((id, j) => {
    // Ids are long snowflakes: as JSON numbers they would lose digits, so only text is taken.
    if (typeof id !== 'string' || !id.trim()) refuse(`${at}（商品区）的第${j + 1}个商品ID应为文本`);
    if (seen.has(id)) refuse(`${at}（商品区）的商品 ${id} 重复`);
    seen.add(id);
  });
  return [...seen];
}

function bannerBlock(block: Row, at: string) {
  onlyKeys(block, ['type', 'images'], at);
  const images = block.images;
  if (!Array.isArray(images) || !images.length) refuse(`${at}（轮播图）须有至少一张图片 images`);
  if (images.length > MAX_IMAGES) refuse(`${at}（轮播图）最多${MAX_IMAGES}张图片`);
  images.forEach((image, j) => {
    if (!isLink(image)) refuse(`${at}（轮播图）的第${j + 1}张图片地址应为上传返回的链接（/oss/…）或 http(s) 地址`);
  });
}

/**
 * The layout must be {"blocks": [banner | goods, …]} and every goods id a live goods of the
 * tenant (one query for all of them); the first fault found is named by its block number.
 */
async function checkLayout(services: Services, tenantId: string, text: string): Promise<void> {
  let layout: unknown;
  try {
    layout = JSON.parse(text);
  } catch {
    refuse('页面布局不是有效的 JSON');
  }
  if (!isObject(layout) || !Array.isArray(layout.blocks)) refuse('页面布局应为 {"blocks": [区块…]}，缺少区块列表 blocks');
  onlyKeys(layout, ['blocks'], '页面布局');
  const blocks = layout.blocks as unknown[];
  if (blocks.length > MAX_BLOCKS) refuse(`页面布局最多${MAX_BLOCKS}个区块`);
  const wanted: { at: string; ids: string[] }[] = [];
  blocks.forEach((block, i) => {
    const at = `页面布局第${i + 1}个区块`;
    if (!isObject(block)) refuse(`${at}应为对象，如 {"type": "banner", "images": […]}`);
    if (block.type === 'banner') bannerBlock(block, at);
    else if (block.type === 'goods') wanted.push({ at, ids: goodsBlock(block, at) });
    else refuse(`${at}的类型 type 应为 banner（轮播图）或 goods（商品区）`);
  });
  const all = [...new Set(wanted.flatMap((w) => w.ids))];
  if (!all.length) return;
  const found = await services.store.find(services.m('goods'), tenantId, { where: { id: all } });
  const live = new Set(found.map((g) => String(g.id)));
  for (const { at, ids } of wanted) {
    const missing = ids.filter((id) => !live.has(id));
    if (missing.length) refuse(`${at}（商品区）的商品不存在或已删除：${missing.join('、')}`);
  }
}

/** The row the submit would store: the stored row with the edits, or a new row with its defaults. */
async function rowToStore(services: Services, model: Model, tenantId: string, body: Row): Promise<Row> {
  if (blank(body.id)) {
    const row = stripReadonly(model, body);
    applyDefaults(model, row);
    return row;
  }
  const stored = await services.store.mustGet(model, tenantId, String(body.id));
  return { ...stored, ...stripReadonly(model, body) };
}

export function registerMallSettingsHandlers(services: Services) {
  services.register('mallDecoration.submit', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const body = { ...bodyOf(ctx) };
    // A layout sent as an object (a storefront tool, not the form's text) is stored as its JSON text.
    if (isObject(body.layout) || Array.isArray(body.layout)) body.layout = JSON.stringify(body.layout);
    ctx.body = body;
    // A blank layout is the schema's to handle: the default on add, 请输入页面布局 on edit.
    if (!blank(body.layout)) {
      // The schema's own checks first, so a too-long or non-object layout gets the schema's message.
      if (model.resource) validateEntity(model.resource.entity, await rowToStore(services, model, caller.tenantId, body));
      await checkLayout(services, caller.tenantId, String(body.layout));
    }
    return (await runOp(ctx, model, SUBMIT)).data;
  });
}
