/** Wire shapes of the session and shell calls (contract §1–§6). */

/** Flat OAuth2 success body of `/blade-auth/oauth/token` (dialect A). */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type?: string;
  expires_in?: number;
  tenant_id?: string;
  user_id?: string;
  dept_id?: string;
  role_id?: string;
  post_id?: string;
  account?: string;
  user_name?: string;
  nick_name?: string;
  real_name?: string;
  avatar?: string;
  role_name?: string;
  error?: string;
  error_description?: string;
}

export interface SocialProvider {
  source: string;
  name: string;
}

/** `GET /blade-sys-config/sysconfig/front`: public settings for the shell. */
export interface FrontConfig {
  captchaMode?: boolean;
  tokenTime?: number;
  UNIT_DECIMAL_PLACES?: number | string;
  AMT_DECIMAL_PLACES?: number | string;
  NUMBER_DECIMAL_PLACES?: number | string;
  socialProviders?: SocialProvider[];
  [key: string]: unknown;
}

export interface CaptchaResponse {
  key: string;
  image: string;
}

/** `GET /blade-system/user/info`. */
export interface UserInfo {
  id?: string;
  tenantId?: string;
  account?: string;
  name?: string;
  realName?: string;
  avatar?: string;
  email?: string;
  phone?: string;
  roleId?: string;
  roleName?: string;
  roleAlias?: string;
  deptId?: string;
  deptName?: string;
  postName?: string;
  staffId?: string;
  [key: string]: unknown;
}

export type { MenuNode, TopMenu } from '../../shared/wire.ts';


/** A favourite ("fast menu") entry. */
export interface FastMenu {
  id?: string;
  menuId: string;
  name?: string;
  menuName?: string;
  path: string;
  source?: string;
  sort?: number;
}

export interface DictItem {
  id?: string;
  parentId?: string;
  code?: string;
  dictKey: string;
  dictValue: string;
  sort?: number;
  remark?: string;
  [key: string]: unknown;
}

export interface UploadedFile {
  link: string;
  domain?: string;
  name?: string;
  originalName?: string;
  attachId?: string;
}

/** Page object of list endpoints (contract §4.3). */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages?: number;
}
