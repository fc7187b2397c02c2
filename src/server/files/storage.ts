import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { badRequest } from '../errors.ts';
import { formatDate } from '../../shared/dates.ts';

/** Accepted upload types, each with the leading bytes its content must have. */
const SIGNATURES: Record<string, ((b: Buffer) => boolean) | null> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  gif: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  webp: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  bmp: (b) => b.subarray(0, 2).toString('latin1') === 'BM',
  pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  // Office Open XML and zip share the zip header; legacy Office files the OLE2 header.
  docx: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  xlsx: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  pptx: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  zip: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  doc: (b) => b.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  xls: (b) => b.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  ppt: (b) => b.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  // Plain text: no NUL bytes in the first kilobyte.
  txt: (b) => !b.subarray(0, 1024).includes(0),
  csv: (b) => !b.subarray(0, 1024).includes(0),
};

export const ALLOWED_EXTENSIONS = Object.keys(SIGNATURES);

export const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp',
  pdf: 'application/pdf', txt: 'text/plain; charset=utf-8', csv: 'text/csv; charset=utf-8', zip: 'application/zip',
  doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** Checks the name and content of an upload; throws a Chinese 400 naming what is wrong. */
export function checkUpload(originalName: string, content: Buffer, limit: number, allowed?: string[]): string {
  if (!originalName || /[\\/]/.test(originalName) || originalName.includes('..') || /[\x00-\x1f]/.test(originalName)) {
    throw badRequest('文件名不合法');
  }
  if (content.length > limit) throw badRequest(`上传文件大小不能超过${Math.round(limit / 1024 / 1024)}M`);
  if (!content.length) throw badRequest('上传文件不能为空');
  const ext = path.extname(originalName).slice(1).toLowerCase();
  const permitted = allowed ?? ALLOWED_EXTENSIONS;
  if (!ext || !permitted.includes(ext) || !(ext in SIGNATURES)) {
    throw badRequest(`不支持的文件类型，仅支持：${permitted.join('、')}`);
  }
  const matches = SIGNATURES[ext];
  if (matches && !matches(content)) throw badRequest(`文件内容与扩展名 .${ext} 不符`);
  return ext;
}

/** Stores a checked file under <dataDir>/uploads/<tenant>/<yyyyMMdd>/<uuid>.<ext>; returns the object key. */
export function storeFile(dataDir: string, tenantId: string, ext: string, content: Buffer): string {
  const day = formatDate().replace(/-/g, '');
  const key = `${tenantId}/${day}/${crypto.randomUUID().replace(/-/g, '')}.${ext}`;
  const full = path.join(dataDir, 'uploads', key);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, content);
  return key;
}

/** Resolves an object key to a file inside the uploads folder, or null if it would escape it. */
export function resolveKey(dataDir: string, key: string): string | null {
  if (!/^[0-9A-Za-z]+\/\d{8}\/[0-9a-f]{32}\.[a-z0-9]+$/.test(key)) return null;
  const root = path.join(dataDir, 'uploads');
  const full = path.resolve(root, key);
  return full.startsWith(root + path.sep) ? full : null;
}
