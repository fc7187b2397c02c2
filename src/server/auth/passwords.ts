import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;

/** scrypt parameters: ~30 ms per hash on this machine's cores; stored with the hash so they can grow. */
const N = 16384;
const r = 8;
const p = 1;
const KEYLEN = 32;

/**
 * Saber clients send md5 hex of the typed password; we hash that with salted scrypt.
 * Format: scrypt$N$r$p$salt$hash (base64url).
 */
export async function hashPassword(md5Hex: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(md5Hex.toLowerCase(), salt, KEYLEN, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(md5Hex: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, rr, pp, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(md5Hex.toLowerCase(), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem: 64 * 1024 * 1024,
  });
  return crypto.timingSafeEqual(actual, expected);
}

export function md5Hex(text: string): string {
  return crypto.createHash('md5').update(text).digest('hex');
}

export const isMd5Hex = (text: string) => /^[0-9a-f]{32}$/i.test(text);
