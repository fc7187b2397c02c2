import { describe, expect, it } from 'vitest';
import { hashPassword, md5Hex, verifyPassword } from '../../src/server/auth/passwords.ts';
import { JwtSigner } from '../../src/server/auth/jwt.ts';
import { antPattern } from '../../src/server/auth/permissions.ts';
import { checkUpload } from '../../src/server/files/storage.ts';

describe('passwords', () => {
  it('stores salted scrypt of the md5 the client sends, never the md5 or sha1', async () => {
    const md5 = md5Hex('admin');
    const a = await hashPassword(md5);
    const b = await hashPassword(md5);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b); // salted
    expect(a).not.toContain(md5);
    expect(await verifyPassword(md5, a)).toBe(true);
    expect(await verifyPassword(md5Hex('wrong'), a)).toBe(false);
    expect(await verifyPassword(md5, '90b9aa7e25f80cf4f64e990b78a9fc5ebd6cecad')).toBe(false);
  });
});

describe('JWT', () => {
  const signer = new JwtSigner(Buffer.from('secret-one'));
  it('verifies its own tokens and refuses forged or expired ones', () => {
    const { token } = signer.sign({ uid: '1' }, 60);
    expect(signer.verify(token)).toMatchObject({ uid: '1' });
    expect(new JwtSigner(Buffer.from('secret-two')).verify(token)).toBeNull();
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ uid: '2', exp: 9e9, iat: 0, jti: 'x' })).toString('base64url')}.${s}`;
    expect(signer.verify(forged)).toBeNull();
    expect(signer.verify(signer.sign({ uid: '1' }, -1).token)).toBe('expired');
    expect(signer.verify('not.a.token')).toBeNull();
  });
});

describe('API scope patterns', () => {
  it('matches ant-style paths', () => {
    const p = antPattern('/blade-system/param/**');
    expect(p.test('/blade-system/param/list')).toBe(true);
    expect(p.test('/blade-system/paramx/list')).toBe(false);
    expect(antPattern('/api/blade-user/*').test('/blade-user/page')).toBe(true);
    expect(antPattern('/blade-user/*').test('/blade-user/a/b')).toBe(false);
  });
});

describe('upload checks', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  it('accepts a real png and refuses bad names, types, content and sizes', () => {
    expect(checkUpload('a.png', png, 100)).toBe('png');
    expect(() => checkUpload('../../x.png', png, 100)).toThrow('文件名不合法');
    expect(() => checkUpload('a.exe', png, 100)).toThrow(/不支持的文件类型/);
    expect(() => checkUpload('a.png', Buffer.from('MZ......'), 100)).toThrow(/不符/);
    expect(() => checkUpload('a.png', png, 5)).toThrow(/不能超过/);
  });
});
