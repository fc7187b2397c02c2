/** The contract's R envelope and the errors that map onto it (CONTRACT.md §4.1). */
export interface R<T = unknown> {
  code: number;
  success: boolean;
  data: T | null;
  msg: string;
}

export function ok<T>(data: T, msg = '操作成功'): R<T> {
  return { code: 200, success: true, data: data === undefined ? null : data, msg: data === null || data === undefined ? '暂无承载数据' : msg };
}

export function status(success: boolean, msg?: string): R<null> {
  return success
    ? { code: 200, success: true, data: null, msg: msg ?? '操作成功' }
    : { code: 400, success: false, data: null, msg: msg ?? '操作失败' };
}

export { ApiError, badRequest, unauthorized, forbidden, notFound, conflict, OAuthError } from '../errors.ts';
