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

/**
 * A failure with a Chinese message. Business and validation failures answer HTTP 400 with body
 * code 400 (BladeX ServiceException); auth 401; permission 403. Clients read the body code.
 */
export class ApiError extends Error {
  constructor(
    public code: number,
    message: string,
    public data: unknown = null,
    public httpStatus: number = code,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, data: unknown = null) => new ApiError(400, msg, data);
export const unauthorized = (msg = '请求未授权') => new ApiError(401, msg);
export const forbidden = (msg = '当前用户无权限访问该接口') => new ApiError(403, msg);
export const notFound = (msg = '数据不存在或已被删除') => new ApiError(400, msg);

/** OAuth2 token endpoint failures are flat `{error, error_description}` with HTTP 400 (dialect A). */
export class OAuthError extends Error {
  constructor(
    public error: string,
    public description: string,
    public httpStatus = 400,
    public extra: Record<string, unknown> = {},
  ) {
    super(description);
  }
}
