/**
 * Label printing (spec 000 §2): the chosen rows become labels sent to the local print service.
 * When the service does not answer, or answers with a version older than this client needs, the
 * '打印提示' dialog says so and how to get one (spec 000 §8) and nothing is sent.
 */
import type { ModalStaticFunctions } from 'antd/es/modal/confirm';
import type { ResourceFile } from '../../../../shared/resource.ts';
import { notifier } from '../../../api/notify.ts';
import { useSettings } from '../../../store/settings.ts';
import { labelsHtml, type LabelDef } from './labelsHtml.ts';
import { checkService, REQUIRED_VERSION, sendJob, serviceUrl, type ServiceState } from './printService.ts';

const zh = {
  title: '打印提示',
  missing: '未检测到本地打印服务（{url}）。请先安装并启动打印服务后再打印：在 ERP 目录运行 npm run print-service 启动参考打印服务（把标签写成 PDF），或安装与其协议兼容的标签打印服务，并在系统参数 PRINT_SERVICE_URL 中填写它的地址。',
  old: '本地打印服务版本过低（当前 {version}，需要 {required} 及以上），请升级打印服务后再打印。',
  sent: '已发送 {pages} 张标签到打印服务',
  failed: '标签打印失败：{reason}',
};
const en: typeof zh = {
  title: 'Printing',
  missing: 'No local print service answers at {url}. Install and start one first: run npm run print-service in the ERP folder for the reference service (it writes labels as PDFs), or install a label print service speaking its protocol and enter its address in the system parameter PRINT_SERVICE_URL.',
  old: 'The local print service is too old ({version}; {required} or later is needed). Please upgrade it and print again.',
  sent: '{pages} labels sent to the print service',
  failed: 'Label printing failed: {reason}',
};

function text(key: keyof typeof zh, params: Record<string, string | number> = {}): string {
  const map = useSettings.getState().language === 'en' ? en : zh;
  return map[key].replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

export function printHint(state: Exclude<ServiceState, { ok: true }>, url: string): { title: string; content: string } {
  return { title: text('title'), content: state.reason === 'old' ? text('old', { version: state.version, required: REQUIRED_VERSION }) : text('missing', { url }) };
}

export async function printLabels(def: LabelDef, rows: Record<string, unknown>[], resource: ResourceFile, modal: Pick<ModalStaticFunctions, 'warning'>): Promise<void> {
  const url = serviceUrl();
  const state = await checkService(url);
  if (!state.ok) {
    const hint = printHint(state, url);
    modal.warning({ title: hint.title, content: hint.content, width: 520 });
    return;
  }
  const english = useSettings.getState().language === 'en';
  const titleOf = (field: string) => {
    const prop = resource.entity.properties[field];
    return String((english && prop?.['x-titleEn']) || prop?.title || field);
  };
  try {
    const job = await sendJob(url, { title: resource.title, html: labelsHtml(def, rows, titleOf), paper: { width: def.width, height: def.height } });
    notifier().success(text('sent', { pages: job.pages || rows.length }));
  } catch (error) {
    notifier().error(text('failed', { reason: error instanceof Error ? error.message : String(error) }));
  }
}
