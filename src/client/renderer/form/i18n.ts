import { useCallback } from 'react';
import { useSettings } from '../../store/settings.ts';

/**
 * Strings of the form dialog, widgets and pickers (zh is the spec's text; en follows it).
 * Kept apart from the shell's and the list renderer's maps.
 */
export const formZh = {
  'form.add': '新增',
  'form.edit': '编辑',
  'form.view': '查看',
  'form.save': '保存',
  'form.cancel': '取消',
  'form.close': '关闭',
  'form.ok': '确定',
  'form.addSuccess': '新增成功',
  'form.editSuccess': '修改成功',
  'form.saveSuccess': '保存成功！',
  'form.operateSuccess': '操作成功!',
  'form.draftRestored': '已恢复上次未保存的内容',
  'form.fixErrors': '请检查表单中标红的内容',
  'form.loadFailed': '数据加载失败',
  'form.loading': '加载中…',
  'form.detail': '详情',
  'form.required': '请输入{title}',
  'form.minItems': '{title}至少填写{limit}条',
  'form.maxItems': '{title}最多填写{limit}条',
  'form.addItem': '添加一条',
  'form.removeItem': '删除此条',
  'form.requiredSelect': '请选择{title}',
  'form.maxLength': '{title}长度不能超过{limit}个字符',
  'form.minLength': '{title}长度不能少于{limit}个字符',
  'form.pattern': '{title}格式不正确',
  'form.integer': '{title}必须是整数',
  'form.number': '{title}必须是数字',
  'form.decimal': '{title}必须是数字，最多{scale}位小数',
  'form.minimum': '{title}不能小于{limit}',
  'form.maximum': '{title}不能大于{limit}',
  'form.enum': '{title}的取值不在允许范围内',
  'form.json': '{title}不是有效的JSON',
  'form.placeholderInput': '请输入{title}',
  'form.placeholderSelect': '请选择{title}',
  'form.yes': '是',
  'form.no': '否',
  'lines.add': '添加',
  'lines.remove': '删除',
  'lines.index': '序号',
  'lines.actions': '操作',
  'lines.max': '最多只能添加{max}条',
  'lines.min': '至少需要{min}条',
  'lines.empty': '暂无数据',
  'upload.button': '上传文件',
  'upload.imageButton': '上传图片',
  'upload.success': '文件上传成功',
  'upload.failed': '文件上传失败!',
  'upload.type': '只能上传{types}格式的文件!',
  'upload.imageType': '只能上传{types}格式的图片!',
  'upload.size': '上传文件大小不能超过{size}!',
  'upload.count': '最多只能上传{count}个文件!',
  'upload.dimension': '图片尺寸只能是{width}*{height}px!请重新选择!',
  'upload.hint': '支持{types}，单个文件不超过{size}',
  'upload.hintCount': '支持{types}，单个文件不超过{size}，最多{count}个',
  'upload.remove': '删除',
  'picker.title': '{title}选择',
  'picker.search': '搜索',
  'picker.reset': '清空',
  'picker.keyword': '输入关键字搜索',
  'picker.empty': '暂无数据',
  'picker.max': '最多选择{max}个{title}',
  'picker.duplicate': '已选数据不可重复！',
  'picker.pickOne': '请选择{title}',
  'picker.notAll': '不可选择全部',
  'picker.lastLevel': '请选择末级节点！',
  'picker.selected': '已选择 {count} 项',
  'picker.clear': '清除',
  'picker.open': '选择',
  'picker.total': '共 {total} 条',
  'picker.all': '全部',
  'area.placeholder': '请选择省/市/区',
} as const;

export type FormKey = keyof typeof formZh;

export const formEn: Record<FormKey, string> = {
  'form.add': 'Add',
  'form.edit': 'Edit',
  'form.view': 'View',
  'form.save': 'Save',
  'form.cancel': 'Cancel',
  'form.close': 'Close',
  'form.ok': 'OK',
  'form.addSuccess': 'Added',
  'form.editSuccess': 'Saved',
  'form.saveSuccess': 'Saved!',
  'form.operateSuccess': 'Done!',
  'form.draftRestored': 'Your unsaved input was restored',
  'form.fixErrors': 'Please check the fields marked in red',
  'form.loadFailed': 'The record could not be loaded',
  'form.loading': 'Loading…',
  'form.detail': 'Details',
  'form.required': 'Enter {title}',
  'form.minItems': '{title}: at least {limit} items',
  'form.maxItems': '{title}: at most {limit} items',
  'form.addItem': 'Add an item',
  'form.removeItem': 'Remove this item',
  'form.requiredSelect': 'Select {title}',
  'form.maxLength': '{title} must be at most {limit} characters',
  'form.minLength': '{title} must be at least {limit} characters',
  'form.pattern': '{title} has the wrong format',
  'form.integer': '{title} must be a whole number',
  'form.number': '{title} must be a number',
  'form.decimal': '{title} must be a number with at most {scale} decimals',
  'form.minimum': '{title} must not be less than {limit}',
  'form.maximum': '{title} must not be greater than {limit}',
  'form.enum': '{title} is not an allowed value',
  'form.json': '{title} is not valid JSON',
  'form.placeholderInput': 'Enter {title}',
  'form.placeholderSelect': 'Select {title}',
  'form.yes': 'Yes',
  'form.no': 'No',
  'lines.add': 'Add',
  'lines.remove': 'Remove',
  'lines.index': 'No.',
  'lines.actions': 'Actions',
  'lines.max': 'At most {max} rows',
  'lines.min': 'At least {min} rows are needed',
  'lines.empty': 'No rows',
  'upload.button': 'Upload file',
  'upload.imageButton': 'Upload image',
  'upload.success': 'File uploaded',
  'upload.failed': 'File upload failed!',
  'upload.type': 'Only {types} files can be uploaded!',
  'upload.imageType': 'Only {types} images can be uploaded!',
  'upload.size': 'A file must not exceed {size}!',
  'upload.count': 'At most {count} files can be uploaded!',
  'upload.dimension': 'The image must be exactly {width}*{height}px! Please choose another one!',
  'upload.hint': '{types}; at most {size} each',
  'upload.hintCount': '{types}; at most {size} each, {count} files at most',
  'upload.remove': 'Remove',
  'picker.title': 'Select {title}',
  'picker.search': 'Search',
  'picker.reset': 'Clear',
  'picker.keyword': 'Type keywords to search',
  'picker.empty': 'No data',
  'picker.max': 'Select at most {max} {title}',
  'picker.duplicate': 'Selected rows must not repeat!',
  'picker.pickOne': 'Select {title}',
  'picker.notAll': '"All" cannot be selected',
  'picker.lastLevel': 'Select a last-level node!',
  'picker.selected': '{count} selected',
  'picker.clear': 'Clear',
  'picker.open': 'Select',
  'picker.total': '{total} rows',
  'picker.all': 'All',
  'area.placeholder': 'Province / city / district',
};

export type FormParams = Record<string, string | number>;
export type FormTranslate = (key: FormKey, params?: FormParams) => string;

function format(template: string, params?: FormParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

const maps = { zh: formZh as Record<FormKey, string>, en: formEn };

/** Outside React (validation, upload checks, messages). */
export function ft(key: FormKey, params?: FormParams): string {
  return format(maps[useSettings.getState().language][key], params);
}

export function useFT(): FormTranslate {
  const language = useSettings((s) => s.language);
  return useCallback((key, params) => format(maps[language][key], params), [language]);
}

export function currentLanguage(): 'zh' | 'en' {
  return useSettings.getState().language;
}
