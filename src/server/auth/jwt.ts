import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** HS256 JWTs: small enough to write here, and nothing to configure for the embedded default. */
export interface JwtClaims {
  [key: string]: unknown;
  jti: string;
  iat: number;
  exp: number;
}

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export class JwtSigner {
  constructor(private secret: Buffer) {}

  sign(claims: Omit<JwtClaims, 'iat' | 'exp' | 'jti'> & { jti?: string }, ttlSeconds: number): { token: string; claims: JwtClaims } {
    const iat = Math.floor(Date.now() / 1000);
    const full: JwtClaims = { ...claims, jti: claims.jti ?? crypto.randomUUID(), iat, exp: iat + ttlSeconds };
    const body = `${HEADER}.${b64(JSON.stringify(full))}`;
    const sig = crypto.createHmac('sha256', this.secret).update(body).digest('base64url');
    return { token: `${body}.${sig}`, claims: full };
  }

  /** A MAC of `text` under the server's secret (signed file links). */
  mac(text: string): string {
    return crypto.createHmac('sha256', this.secret).update(text).digest('base64url');
  }

  /** True when `mac` is the MAC of `text` (compared in constant time). */
  checkMac(text: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(text));
    const given = Buffer.from(mac);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  /** Returns the claims of a well-signed, unexpired token; 'expired' or null otherwise. */
  verify(token: string): JwtClaims | 'expired' | null {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) return null;
    const expected = crypto.createHmac('sha256', this.secret).update(`${parts[0]}.${parts[1]}`).digest();
    const given = Buffer.from(parts[2], 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
    let claims: JwtClaims;
    try {
      claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return 'expired';
    return claims;
  }
}

/** The signing secret: env ERP_JWT_SECRET, else generated once into the data directory (mode 600). */
export function loadSecret(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  const file = path.join(dataDir, 'jwt-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    try {
      fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8');
}
