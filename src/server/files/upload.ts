/**
 * Receiving one uploaded file (multipart field `file`): the one path every upload call takes
 * (oss put-file, bill attachments). The name, type, content and size are checked by checkUpload,
 * the file is stored on local disk and recorded as an attachment row (附件管理, blade_attach).
 * A caller may narrow the accepted types and the size, and may refuse the upload after the checks
 * and before anything is written (`before`), e.g. when a bill already has its attachments.
 */
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller } from '../http/context.ts';
import { badRequest } from '../errors.ts';
import { checkUpload, storeFile } from './storage.ts';

export interface UploadedFile {
  link: string;
  domain: string;
  name: string;
  originalName: string;
  attachId: string;
  extension: string;
  attachSize: number;
}

export interface UploadOptions {
  /** Accepted extensions (default: every type the server knows). */
  allowed?: string[];
  /** Largest size in bytes (never above the server's upload limit). */
  limit?: number;
  /** Runs after the checks, before the file is stored: throw to refuse. Gets the multipart fields sent before the file. */
  before?: (fields: Record<string, string>) => Promise<void>;
}

const sizeMessage = (limit: number) => `上传文件大小不能超过${Math.round(limit / 1024 / 1024)}M`;

export async function receiveUpload(services: Services, ctx: Ctx, opts: UploadOptions = {}): Promise<UploadedFile> {
  const caller = mustCaller(ctx);
  const req = ctx.req;
  if (!req.isMultipart()) throw badRequest('请使用multipart/form-data上传，文件字段名为file');
  const { store } = services;
  const active = (await store.find(services.m('oss'), caller.tenantId, { where: { status: 2 } }))[0];
  if (active && Number(active.category) !== 1) throw badRequest('当前启用的存储配置暂不支持，请启用本地存储(local)');
  const part = await req.file();
  if (!part || part.fieldname !== 'file') throw badRequest('请选择要上传的文件（字段名file）');
  const content = await part.toBuffer();
  const limit = Math.min(services.config.uploadLimit, opts.limit ?? Number.POSITIVE_INFINITY);
  if (part.file.truncated) throw badRequest(sizeMessage(services.config.uploadLimit));
  const originalName = part.filename;
  const ext = checkUpload(originalName, content, limit, opts.allowed);
  if (opts.before) {
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(part.fields ?? {})) {
      const field = Array.isArray(value) ? value[0] : value;
      if (field && field.type === 'field') fields[key] = String(field.value ?? '');
    }
    await opts.before(fields);
  }
  const key = storeFile(services.config.dataDir, caller.tenantId, ext, content);
  const domain = `${req.protocol}://${req.headers.host ?? `${services.config.host}:${services.config.port}`}/oss`;
  const link = `${domain}/${key}`;
  const attach = await store.insert(services.m('attach'), caller, { link, domain, name: key, originalName, extension: ext, attachSize: content.length });
  return { link, domain, name: key, originalName, attachId: String(attach.id), extension: ext, attachSize: content.length };
}
