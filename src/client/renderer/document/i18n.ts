import { useCallback } from 'react';
import { useSettings } from '../../store/settings.ts';

/** Strings of the bill page and its line grid (zh from the spec where it gives them). */
const zh = {
  'doc.new': '新单',
  'doc.newBill': '新建{title}',
  'doc.lines': '商品明细',
  'doc.history': '操作记录',
  'doc.postings': '记账分录',
  'doc.addGoods': '添加商品',
  'doc.deleteLines': '删除行',
  'doc.barcode': '扫码或输入条码，回车添加',
  'doc.keys': 'Enter 下一格 · Insert 添加行 · Ctrl+Delete 删除行 · 可从表格粘贴',
  'doc.fromSource': '从{title}生成',
  'doc.pickSource': '选择{title}',
  'doc.sourceNo': '请输入{title}单号',
  'doc.generate': '生成',
  'doc.changeDepot': '修改仓库后商品信息会清空，确认修改仓库吗？',
  'doc.duplicateTitle': '商品重复',
  'doc.duplicate': '第{line}行已有相同商品和单位，合并数量吗？',
  'doc.remark': '审核意见',
  'doc.remarkRequired': '驳回时请填写审核意见',
  'doc.reason': '备注',
  'doc.confirm': '确定{action}该单据吗？',
  'doc.done': '{action}成功',
  'doc.saveFirst': '请先保存！',
  'doc.noLines': '请添加商品明细',
  'doc.barcodeMissing': '未找到条码 {code} 对应的商品',
  'doc.status': '状态',
  'doc.summary': '合计',
  'doc.when': '时间',
  'doc.who': '操作人',
  'doc.action': '操作',
  'doc.from': '原状态',
  'doc.to': '新状态',
  'doc.goods': '商品',
  'doc.depot': '仓库',
  'doc.qty': '数量',
  'doc.value': '金额',
  'doc.unitCost': '单位成本',
  'doc.balanceQty': '结存数量',
  'doc.balanceValue': '结存金额',
  'doc.entry': '方向',
  'doc.post': '记账',
  'doc.reverse': '冲红',
  'doc.party': '往来',
  'doc.amount': '金额',
  'doc.ar': '应收',
  'doc.ap': '应付',
  'doc.relations': '单据关联',
  'doc.billType': '单据类型',
  'doc.billNo': '单据编号',
  'doc.billDate': '单据日期',
} as const;

export type DocKey = keyof typeof zh;

const en: Record<DocKey, string> = {
  'doc.new': 'New',
  'doc.newBill': 'New {title}',
  'doc.lines': 'Lines',
  'doc.history': 'History',
  'doc.postings': 'Postings',
  'doc.addGoods': 'Add goods',
  'doc.deleteLines': 'Delete rows',
  'doc.barcode': 'Scan or type a barcode, Enter adds it',
  'doc.keys': 'Enter next cell · Insert adds a row · Ctrl+Delete deletes it · paste from a spreadsheet',
  'doc.fromSource': 'From {title}',
  'doc.pickSource': 'Choose {title}',
  'doc.sourceNo': '{title} number',
  'doc.generate': 'Generate',
  'doc.changeDepot': 'Changing the warehouse clears the goods lines. Change it?',
  'doc.duplicateTitle': 'Duplicate goods',
  'doc.duplicate': 'Line {line} has the same goods and unit. Merge the quantities?',
  'doc.remark': 'Audit remark',
  'doc.remarkRequired': 'Please give a remark to reject',
  'doc.reason': 'Remark',
  'doc.confirm': '{action} this bill?',
  'doc.done': '{action} done',
  'doc.saveFirst': 'Please save first!',
  'doc.noLines': 'Please add goods lines',
  'doc.barcodeMissing': 'No goods with barcode {code}',
  'doc.status': 'Status',
  'doc.summary': 'Total',
  'doc.when': 'Time',
  'doc.who': 'By',
  'doc.action': 'Action',
  'doc.from': 'From',
  'doc.to': 'To',
  'doc.goods': 'Goods',
  'doc.depot': 'Warehouse',
  'doc.qty': 'Quantity',
  'doc.value': 'Value',
  'doc.unitCost': 'Unit cost',
  'doc.balanceQty': 'Balance qty',
  'doc.balanceValue': 'Balance value',
  'doc.entry': 'Entry',
  'doc.post': 'Post',
  'doc.reverse': 'Reverse',
  'doc.party': 'Partner',
  'doc.amount': 'Amount',
  'doc.ar': 'Receivable',
  'doc.ap': 'Payable',
  'doc.relations': 'Related bills',
  'doc.billType': 'Bill type',
  'doc.billNo': 'Bill no.',
  'doc.billDate': 'Bill date',
};

export type DocTranslate = (key: DocKey, params?: Record<string, string | number>) => string;

function format(template: string, params?: Record<string, string | number>): string {
  return params ? template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : template;
}

export function docText(key: DocKey, params?: Record<string, string | number>): string {
  return format((useSettings.getState().language === 'en' ? en : zh)[key], params);
}

export function useDT(): DocTranslate {
  const language = useSettings((s) => s.language);
  return useCallback((key, params) => format((language === 'en' ? en : zh)[key], params), [language]);
}
