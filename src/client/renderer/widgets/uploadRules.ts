/**
 * Upload rules of spec 000 §5 and §9: attachments doc/pdf/jpg/xls/png/xlsx up to 5M with a
 * per-dialog count and warning; images png/jpg/jpeg of an exact size (default 116×116).
 */
import type { UploadDef } from '../form/types.ts';
import { ft } from '../form/i18n.ts';

export const ATTACHMENT_TYPES = ['doc', 'pdf', 'jpg', 'xls', 'png', 'xlsx'];
export const IMAGE_TYPES = ['png', 'jpg', 'jpeg'];
export const MAX_SIZE_KB = 5 * 1024;
export const IMAGE_SIZE = 116;

export interface UploadedFile {
  link: string;
  domain?: string;
  name?: string;
  originalName?: string;
  attachId?: string;
}

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

export function sizeText(kb: number): string {
  return kb >= 1024 && kb % 1024 === 0 ? `${kb / 1024}M` : `${kb}KB`;
}

/** The message refusing a file by type or size, or undefined when it may be sent. */
export function checkFile(
  file: { name: string; size: number },
  def: UploadDef | undefined,
  image: boolean,
): string | undefined {
  const accept = (def?.accept?.length ? def.accept : image ? IMAGE_TYPES : ATTACHMENT_TYPES).map((type) =>
    type.toLowerCase().replace(/^\./, ''),
  );
  if (!accept.includes(extensionOf(file.name))) {
    return def?.typeMessage ?? ft(image ? 'upload.imageType' : 'upload.type', { types: accept.join('/') });
  }
  const maxKb = def?.maxSizeKb ?? MAX_SIZE_KB;
  if (file.size > maxKb * 1024) {
    // For images `sizeMessage` is the dimension message; the byte limit keeps the default text.
    return (!image && def?.sizeMessage) || ft('upload.size', { size: sizeText(maxKb) });
  }
  return undefined;
}

/**
 * The count refusal: at `warnAt` files the dialog's own warning (customer: 当前页面最多可上传4个附件！),
 * at `maxCount` the generic one.
 */
export function checkCount(count: number, def: UploadDef | undefined): string | undefined {
  if (def?.warnAt !== undefined && count >= def.warnAt)
    return def.warnMessage ?? ft('upload.count', { count: def.warnAt });
  if (def?.maxCount !== undefined && count >= def.maxCount) return ft('upload.count', { count: def.maxCount });
  return undefined;
}

/** Required image size: declared, else 116×116; width 0 and height 0 switch the check off. */
export function imageSize(def: UploadDef | undefined): { width: number; height: number } | undefined {
  const width = def?.width ?? IMAGE_SIZE;
  const height = def?.height ?? IMAGE_SIZE;
  return width > 0 && height > 0 ? { width, height } : undefined;
}

export function readImageSize(file: Blob): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      resolve({ width: image.naturalWidth, height: image.naturalHeight });
      URL.revokeObjectURL(url);
    };
    image.onerror = () => {
      reject(new Error('not an image'));
      URL.revokeObjectURL(url);
    };
    image.src = url;
  });
}

export function dimensionMessage(def: UploadDef | undefined, size: { width: number; height: number }): string {
  return def?.sizeMessage ?? ft('upload.dimension', { width: size.width, height: size.height });
}

export function asFiles(value: unknown): UploadedFile[] {
  if (Array.isArray(value))
    return value.filter((item): item is UploadedFile => Boolean(item && typeof item === 'object' && 'link' in item));
  if (typeof value === 'string' && value.startsWith('[')) {
    try {
      return asFiles(JSON.parse(value));
    } catch {
      return [];
    }
  }
  return [];
}
