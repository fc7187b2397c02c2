import { describe, expect, test } from 'vitest';
import { expectOk, signedIn } from '../support/client.ts';
import { storedContent } from './support/shell.ts';
import { signedInSession } from './support/session.ts';

interface LoggedError {
  type: string;
  message: string;
  stack: string;
  url: string;
  time: string;
}

// View errors are stored locally and uploaded later to the error log.
describe('error logging', () => {
  const session = signedInSession();

  test('a window error is stored with type, message, stack, url and time, then uploaded', async () => {
    const { page } = session.browser;
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e view failure');
      }, 0);
    });
    await expect
      .poll(async () => ((await storedContent<LoggedError[]>(page, 'errorLog')) ?? []).map((e) => e.message))
      .toContain('e2e view failure');
    const [entry] = (await storedContent<LoggedError[]>(page, 'errorLog'))!;
    expect(entry).toMatchObject({ type: 'window.error', url: expect.stringContaining(session.server.url) });
    expect(entry.stack).toContain('e2e view failure');
    expect(entry.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // Uploads happen on start-up and every minute; a reload triggers one.
    const upload = page.waitForRequest((r) => r.url().includes('/api/blade-log/error/upload'));
    await page.reload();
    expect((await upload).method()).toBe('POST');
    await expect.poll(async () => (await storedContent<LoggedError[]>(page, 'errorLog'))?.length ?? 0).toBe(0);

    // The session.server's error log now holds it as a view error.
    const api = await signedIn(session.server.url);
    const page1 = expectOk(await api.get('/blade-log/error/list', { current: 1, size: 20 })) as {
      records: { errorType: string; message: string; stackTrace: string; url: string }[];
    };
    const logged = page1.records.find((r) => r.message.includes('e2e view failure'));
    expect(logged).toMatchObject({ errorType: 'view', url: entry.url });
    expect(logged?.stackTrace).toContain('e2e view failure');
  });
});
