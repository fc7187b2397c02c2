import { http, request } from './http.ts';
import type { DictItem, FastMenu, FrontConfig, MenuNode, TopMenu, UploadedFile, UserInfo } from './types.ts';

/** Calls the shell makes after sign-in: user, menus, favourites, dictionaries, config, files. */

export const fetchFrontConfig = () =>
  http.get<FrontConfig>('/api/blade-sys-config/sysconfig/front', undefined, { silent: true, withToken: false });

export const fetchUserInfo = () => http.get<UserInfo>('/api/blade-system/user/info');

export const fetchMenuRoutes = (topMenuId?: string) =>
  http.get<MenuNode[]>('/api/blade-system/menu/routes', { topMenuId });

export const fetchButtons = () => http.get<MenuNode[]>('/api/blade-system/menu/buttons');

export const fetchTopMenus = () => http.get<TopMenu[]>('/api/blade-system/menu/top-menu');

export const fetchFastMenus = () => http.get<FastMenu[]>('/api/blade-system/fastmenu/list');

/** Replaces the user's favourites with the given menus (the server refuses more than 5). */
export const saveFastMenus = (menuIds: string[]) =>
  http.postParams<unknown>('/api/blade-system/fastmenu/fastmenuAdd', { menuIds: menuIds.join(',') });

export const fetchDictionary = (code: string, business: boolean) =>
  http.get<DictItem[]>(business ? '/api/blade-system/dict-biz/dictionary' : '/api/blade-system/dict/dictionary', {
    code,
  });

export const updateUserInfo = (info: { avatar?: string; realName?: string; phone?: string; email?: string }) =>
  http.post<unknown>('/api/blade-user/update-info', info);

/** Each password as md5 hex (BladeX's wire form; the password form hashes them). */
export const updatePassword = (hashed: { oldPassword: string; newPassword: string; newPassword1: string }) =>
  http.postParams<unknown>('/api/blade-user/update-password', hashed);

export function uploadFile(file: File | Blob, fileName?: string, silent = false) {
  const form = new FormData();
  if (fileName) form.append('file', file, fileName);
  else form.append('file', file);
  return http.post<UploadedFile>('/api/blade-resource/oss/endpoint/put-file', undefined, { body: form, silent });
}

export interface ErrorLogUpload {
  errorType: 'view';
  message: string;
  stackTrace: string;
  url: string;
  time: string;
}

export const uploadErrorLog = (entry: ErrorLogUpload) =>
  request<unknown>('/api/blade-log/error/upload', {
    method: 'post',
    json: entry,
    silent: true,
    // A background upload must never sign the user out.
    skipAuthRecovery: true,
  });
