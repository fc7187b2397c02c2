import { useCallback } from 'react';
import { useSettings } from '../../store/settings.ts';

/** Strings of the generic renderer (list, page, common), kept apart from the shell's maps. */
export const rendererZh = {
  'list.add': '新增',
  'list.delete': '删除',
  'list.batchDelete': '删除',
  'list.view': '查看',
  'list.edit': '编辑',
  'list.more': '更多',
  'list.actions': '操作',
  'list.index': '序号',
  'list.search': '搜索',
  'list.reset': '重置',
  'list.export': '导出',
  'list.import': '导入',
  'list.refresh': '刷新',
  'list.columns': '列设置',
  'list.columnsReset': '恢复默认',
  'list.selectAtLeastOne': '请选择至少一条数据',
  'list.selectOne': '请选择一条数据！',
  'list.print': '打印',
  'list.confirmBatchDelete': '确定将选择数据删除?',
  'list.confirmDelete': '确定将该数据删除?',
  'list.operateSuccess': '操作成功!',
  'list.importSuccess': '导入成功!',
  'list.importRule': '按模板的列标题逐行填写（第一行为标题）。文件中任何一行有误，整份文件都不导入，并列出出错的行号。',
  'list.importTemplate': '下载导入模板',
  'list.importTemplateFile': '导入模板.xlsx',
  'list.importDrop': '点击或拖入 xlsx 文件导入',
  'list.importing': '正在导入…',
  'list.empty': '暂无数据',
  'list.summary': '合计',
  'chart.other': '其他',
  'list.exportStarted': '已开始导出：进度见右上角“导出任务”，完成后自动下载',
  'dashboard.more': '更多',
  'list.drilled': '已按所点的数字筛选：{what}（关闭此提示即显示全部）',
  'list.total': '共 {total} 条',
  'list.placeholderInput': '请输入{title}',
  'list.placeholderSelect': '请选择{title}',
  'list.rangeStart': '开始',
  'list.rangeEnd': '结束',
  'list.yes': '是',
  'list.no': '否',
  'list.tip': '提示',
  'list.ok': '确定',
  'list.progress': '已处理 {done} / {total}（跳过 {skipped}）',
  'list.progressStarting': '正在开始…',
  'list.cancel': '取消',
  'tree.addChild': '新增下级',
  'dict.parentTitle': '字典列表',
  'dict.childTitle': '字典配置',
  'dict.childOf': '字典配置：{name}',
  'dict.pickParent': '请先选择左侧字典',
  'dict.pickParentAbove': '请先选择上方字典',
  'card.copy': '复制',
  'card.copied': '复制成功',
  'card.empty': '暂无档案信息',
  'page.loadFailed': '页面配置加载失败',
} as const;

export type RendererKey = keyof typeof rendererZh;

export const rendererEn: Record<RendererKey, string> = {
  'list.add': 'Add',
  'list.delete': 'Delete',
  'list.batchDelete': 'Delete',
  'list.view': 'View',
  'list.edit': 'Edit',
  'list.more': 'More',
  'list.actions': 'Actions',
  'list.index': 'No.',
  'list.search': 'Search',
  'list.reset': 'Reset',
  'list.export': 'Export',
  'list.import': 'Import',
  'list.refresh': 'Refresh',
  'list.columns': 'Columns',
  'list.columnsReset': 'Reset',
  'list.selectAtLeastOne': 'Please select at least one row',
  'list.selectOne': 'Please select one row!',
  'list.print': 'Print',
  'list.confirmBatchDelete': 'Delete the selected rows?',
  'list.confirmDelete': 'Delete this row?',
  'list.operateSuccess': 'Done',
  'list.importSuccess': 'Imported',
  'list.importRule': 'Fill in one row per record under the template titles (first row). If any row is wrong, nothing in the file is imported and the wrong rows are listed.',
  'list.importTemplate': 'Download the import template',
  'list.importTemplateFile': ' import template.xlsx',
  'list.importDrop': 'Click or drop an xlsx file to import',
  'list.importing': 'Importing…',
  'list.empty': 'No data',
  'list.summary': 'Total',
  'chart.other': 'Other',
  'list.exportStarted': 'Export started: progress under Exports (top right); the file downloads when done',
  'dashboard.more': 'More',
  'list.drilled': 'Filtered by the figure you opened: {what} (close this notice to show all)',
  'list.total': '{total} rows',
  'list.placeholderInput': 'Enter {title}',
  'list.placeholderSelect': 'Select {title}',
  'list.rangeStart': 'From',
  'list.rangeEnd': 'To',
  'list.yes': 'Yes',
  'list.no': 'No',
  'list.tip': 'Notice',
  'list.ok': 'OK',
  'list.progress': '{done} of {total} done ({skipped} skipped)',
  'list.progressStarting': 'Starting…',
  'list.cancel': 'Cancel',
  'tree.addChild': 'Add child',
  'dict.parentTitle': 'Dictionaries',
  'dict.childTitle': 'Dictionary items',
  'dict.childOf': 'Items of {name}',
  'dict.pickParent': 'Select a dictionary on the left first',
  'dict.pickParentAbove': 'Select a dictionary above first',
  'card.copy': 'Copy',
  'card.copied': 'Copied',
  'card.empty': 'No profile yet',
  'page.loadFailed': 'The page configuration could not be loaded',
};

export type RendererParams = Record<string, string | number>;
export type RendererTranslate = (key: RendererKey, params?: RendererParams) => string;

function format(template: string, params?: RendererParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

const maps = { zh: rendererZh as Record<RendererKey, string>, en: rendererEn };

/** Outside React (grid callbacks, messages). */
export function rt(key: RendererKey, params?: RendererParams): string {
  return format(maps[useSettings.getState().language][key], params);
}

export function useRT(): RendererTranslate {
  const language = useSettings((s) => s.language);
  return useCallback((key, params) => format(maps[language][key], params), [language]);
}

/** Picks the English label when English is active and one exists. */
export function useLabel(): (zh: string, en?: string) => string {
  const language = useSettings((s) => s.language);
  return useCallback((zh, en) => (language === 'en' && en ? en : zh), [language]);
}
