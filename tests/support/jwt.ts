import crypto from 'node:crypto';

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The claims of a JWT, unverified (tests read their own tokens). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

/** Signs claims as an HS256 JWT with the given secret, written here independently of the server. */
export function signJwt(claims: Record<string, unknown>, secret: string): string {
  const body = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(JSON.stringify(claims))}`;
  return `${body}.${crypto.createHmac('sha256', secret).update(body).digest('base64url')}`;
}
