import { inLanguage } from '../../../i18n/translator.ts';

const zh = {
  billNo: '订单号',
  billDate: '下单日期',
  customer: '客户',
  goods: '商品',
  qty: '数量',
  amount: '金额',
  totalQty: '合计数量',
  total: '应付金额',
  pickup: '到店自提',
  delivery: '送货上门',
  room: '自提门店',
  area: '所在区域',
  address: '地址',
  contact: '收货人',
  phone: '联系电话',
  remark: '备注',
  scan: '扫码查看订单详情',
  printedAt: '打印时间',
};

export type ReceiptText = typeof zh;

const en: ReceiptText = {
  billNo: 'Order',
  billDate: 'Date',
  customer: 'Customer',
  goods: 'Goods',
  qty: 'Qty',
  amount: 'Amount',
  totalQty: 'Total qty',
  total: 'To pay',
  pickup: 'Pickup in store',
  delivery: 'Delivery',
  room: 'Store',
  area: 'Area',
  address: 'Address',
  contact: 'Recipient',
  phone: 'Phone',
  remark: 'Remark',
  scan: 'Scan for the order details',
  printedAt: 'Printed',
};

export function receiptText(): ReceiptText {
  return inLanguage(zh, en);
}
