/**
 * Site settings of the shell (Saber's `website.js`). Values the server can override
 * at run time (captchaMode, tokenTime) come from `GET /blade-sys-config/sysconfig/front`.
 */
export const website = {
  /** Prefix of every web-storage key: `saber-token`, `saber-tagList`, … */
  storageKey: 'saber',
  clientId: 'saber',
  clientSecret: 'saber_secret',
  tenantMode: true,
  defaultTenantId: '000000',
  captchaMode: false,
  /** Seconds after which the access token is refreshed (checked every `refreshCheckMs`). */
  tokenTime: 3000,
  refreshCheckMs: 10_000,
  tokenHeader: 'Blade-Auth',
  /** Body codes that reject without a toast; the caller handles them. */
  statusWhiteList: [] as number[],
  maxTabs: 15,
  maxFavourites: 5,
  smsCountdownSeconds: 60,
  /** Menu codes that are never shown in the sidebar. */
  hiddenMenuCodes: [] as string[],
  homePath: '/wel/home/index',
  lockPath: '/lock',
  loginPath: '/login',
  defaultThemeColor: '#28375A',
  avatarMaxBytes: 500 * 1024,
  errorUploadIntervalMs: 60_000,
} as const;

/** Basic client header value sent on every request. */
export const basicClientHeader = `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`;
