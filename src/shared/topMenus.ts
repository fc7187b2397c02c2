/**
 * The two top menus seeded per tenant (业务中心 / 系统中心), each holding its modules' whole menu
 * subtrees. Shared with the client build, which bundles the icons they name with the menu icons.
 */
export interface SeedTopMenu {
  code: string;
  name: string;
  nameEn: string;
  source: string;
  /** Codes of the root menus it holds. */
  modules: string[];
}

export const SEEDED_TOP_MENUS: readonly SeedTopMenu[] = [
  { code: 'business', name: '业务中心', nameEn: 'Business', source: 'iconfont icon-appstore', modules: ['sale', 'purchase', 'warehouse', 'finance', 'marketing', 'mall', 'analysis', 'base'] },
  { code: 'platform', name: '系统中心', nameEn: 'System', source: 'iconfont icon-setting', modules: ['settings', 'system', 'authority', 'log', 'resource', 'desk', 'work', 'hr', 'fixedAssets'] },
];
