import { describe, expect, test } from 'vitest';
import { signedIn } from '../support/client.ts';
import { screenshot } from './support/browser.ts';
import { expectMessage, settle } from './support/shell.ts';
import { signedInSession } from './support/session.ts';

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

// /info/index: personal info (avatar rule, realName/phone/email) and the change-password rules.
describe('personal information', () => {
  const session = signedInSession();

  test('the user menu hides personal info for the account named admin', async () => {
    const { page } = session.browser;
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '控制台' }).waitFor();
    await expect(page.getByRole('menuitem', { name: '个人信息' }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
  });

  test('the page shows the two tabs and the stored profile', async () => {
    const { page } = session.browser;
    await page.goto(`${session.server.url}/info/index`);
    const info = page.getByTestId('info-page');
    await info.getByRole('tab', { name: '个人信息' }).waitFor();
    await info.getByRole('tab', { name: '修改密码' }).waitFor();
    await expect.poll(() => page.getByLabel('手机号码').inputValue()).toBe('13800000000');
    await expect(page.getByLabel('姓名').inputValue()).resolves.toBe('管理员');
    await settle(page);
    await screenshot(page, 'personal-info');
  });

  test('switching tabs keeps what was typed (open tabs stay alive)', async () => {
    const { page } = session.browser;
    await page.getByLabel('姓名').fill('尚未保存的输入');
    const tab = (label: string) =>
      page
        .getByTestId('tab-bar')
        .getByTestId('tab')
        .filter({ hasText: new RegExp(`^${label}$`) });
    await tab('首页').click();
    await page.waitForURL(/\/wel\/home\/index$/);
    await tab('个人信息').click();
    await page.waitForURL(/\/info\/index$/);
    await expect(page.getByLabel('姓名').inputValue()).resolves.toBe('尚未保存的输入');
  });

  test('an avatar that is not png/jpg or exceeds 500 kb is refused with the rule message', async () => {
    const { page } = session.browser;
    const input = page.locator('[data-testid=info-page] input[type=file]');
    await input.setInputFiles({ name: 'avatar.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expectMessage(page, '只能上传jpg/png用户头像，且不超过500kb');
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 });
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(600 * 1024, 1) });
    await expectMessage(page, '只能上传jpg/png用户头像，且不超过500kb');
  });

  test('a png avatar uploads, and the profile saves through update-info', async () => {
    const { page } = session.browser;
    await page.locator('[data-testid=info-page] input[type=file]').setInputFiles({
      name: 'avatar.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await expectMessage(page, '文件上传成功');
    await expect.poll(() => page.locator('[data-testid=profile-avatar] img').getAttribute('src')).toBeTruthy();
    await page.getByLabel('姓名').fill('系统管理员');
    await page.getByLabel('邮箱').fill('root@example.com');
    await page.getByRole('button', { name: '提交' }).first().click();
    await expectMessage(page, '保存成功！');
    const api = await signedIn(session.server.url);
    const info = (await api.get('/blade-system/user/info')).body.data;
    expect(info).toMatchObject({ realName: '系统管理员', email: 'root@example.com' });
    expect(String(info.avatar)).not.toBe('');
  });

  test('change password: the confirmation must match, and the new password works', async () => {
    const { page } = session.browser;
    await page.getByTestId('info-page').getByRole('tab', { name: '修改密码' }).click();
    await page.getByLabel('原密码').fill('admin');
    await page.getByLabel('新密码').fill('admin-2');
    await page.getByLabel('确认密码').fill('admin-3');
    await page.locator('form[id=password]').getByRole('button', { name: '提交' }).click();
    await page.getByText('两次输入密码不一致!').waitFor();
    await page.getByLabel('确认密码').fill('admin-2');
    await page.locator('form[id=password]').getByRole('button', { name: '提交' }).click();
    // Tokens of the old password are refused: the page signs out to the login, and the message
    // is still there once the sign-in page is up.
    await page.waitForURL(/\/login/);
    await page.getByPlaceholder('用户名').waitFor();
    await expectMessage(page, '密码修改成功');
    await signedIn(session.server.url, '000000', 'admin', 'admin-2');
  });
});
