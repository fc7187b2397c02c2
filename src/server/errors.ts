/**
 * Failures with a Chinese message, for the domain (records, documents, posting) as much as for
 * HTTP: nothing here depends on fastify. The HTTP layer maps them onto the contract's envelope.
 * Business and validation failures are 400 (BladeX ServiceException); auth 401; permission 403;
 * a stale version or a lost race 409 on the wire is not what BladeX clients expect, so conflicts
 * stay 400 with their own message.
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
/** Someone else changed or moved the row first (optimistic lock, state race). */
export const conflict = (msg: string, data: unknown = null) => new ApiError(400, msg, data);

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
