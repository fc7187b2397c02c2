/**
 * 运输费用单 (schemas/finance/transport.json): a carrier's freight statement, one line per waybill.
 * The generic document engine saves, approves, posts (a payable to the carrier) and flushes it;
 * this file holds the calls of its own:
 * - readExcel: the carrier's .xlsx read into the lines of a draft, every row or none (each bad row
 *   named, 第N行), then matched;
 * - rematch: each line's waybill number against the courier numbers of approved or posted
 *   sales-outs and purchase-ins, and duplicates within the statement or in another live one;
 * - repeatExport: the duplicate and unmatched lines as an xlsx;
 * - transportApply: a posted statement's payment request (once);
 * - putTransportheadFile: the carrier's original file, through the one shared upload path.
 * Every read and write is scoped to the caller's tenant; amounts are exact decimals. A statement of
 * 10,000 lines is read, saved and matched with a constant number of statements per 500 waybills.
 */
import ExcelJS from 'exceljs';
import type { Services } from '../services.ts';
import type { Ctx } from '../http/context.ts';
import { mustCaller, param } from '../http/context.ts';
import type { Actor, Row } from '../engine/store.ts';
import type { Model } from '../engine/model.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { RawReply } from '../engine/raw.ts';
import { readUploadedSheet } from '../files/xlsx-rows.ts';
import { receiveUpload } from '../files/upload.ts';
import { documentModel, loadBill, stateName, tenantPlaces, type DocumentModel } from '../engine/document/context.ts';
import { saveBill, userName } from '../engine/document/transitions.ts';
import { requireVersion } from '../engine/records.ts';
import { Dec, fixed, toDec } from '../../shared/money/index.ts';
import { formatDateTime } from '../../shared/dates.ts';
import { normalDate, partnersByCode } from './party-rows.ts';

/** Column titles accepted for each line field (the Chinese title first, as the template shows it). */
const COLUMNS: Record<string, string[]> = {
  courierNo: ['运单号', '快递单号', '单号', '运单编号', 'courierNo'],
  freightAmt: ['运费', '运费金额', '金额', 'freightAmt'],
  shipDate: ['发货日期', '寄件日期', '日期', 'shipDate'],
  destination: ['目的地', '收货地', 'destination'],
  pieces: ['件数', 'pieces'],
  weight: ['重量', '重量(kg)', '重量（kg）', '计费重量', 'weight'],
  remark: ['备注', 'remark'],
  carrierCode: ['承运商编码', '供应商编码', 'carrierCode'],
};
const TITLES = '第1行应为列标题：运单号、运费（可选：发货日期、目的地、件数、重量、备注、承运商编码）';
const MAX_LINES = 20_000;
const CHUNK = 500;
/** States whose bills carry goods that left or came in: approved and posted. */
const SHIPPED = ['1304', '1306'];
/** States of a statement that no longer counts (cancelled, flushed). */
const DEAD = ['1307', '1308'];
/** Match states (dictionary transport_match_status). */
const UNMATCHED = 1;
const MATCHED = 2;
const AMBIGUOUS = 3;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A cell's date: yyyy-MM-dd (also yyyy/M/d, yyyy.M.d) or an Excel day number. */
function cellDate(text: string): string | undefined {
  const day = normalDate(text.slice(0, 10)) ?? normalDate(text);
  if (day) return day;
  if (/^\d{5}(\.\d+)?$/.test(text)) {
    // Excel's day 1 is 1900-01-01 (with its phantom 1900-02-29): day 25569 is 1970-01-01.
    const date = new Date(Math.round((Number(text) - 25569) * 86400) * 1000);
    if (!Number.isNaN(date.getTime())) return date.toISOString().slice(0, 10);
  }
  return undefined;
}

/** The first `max` problems as one message (the whole list travels in data.errors). */
function problemsMessage(errors: string[], max = 10): string {
  const shown = errors.slice(0, max).join('；');
  return errors.length > max ? `${shown}；……共${errors.length}行有误，请修改后重新导入` : shown;
}

interface Candidate {
  billId: string;
  billType: string;
  billNo: string;
  partnerName: string;
}

export interface MatchCounts {
  total: number;
  matched: number;
  unmatched: number;
  ambiguous: number;
  repeated: number;
}

export function registerTransportHandlers(services: Services) {
  const { store } = services;

  async function mustBill(actor: Actor, model: Model, id: string | undefined): Promise<Row> {
    if (!id) throw badRequest('缺少参数 id');
    const head = await store.get(model, actor.tenantId, id);
    if (!head) throw notFound('单据不存在或已被删除');
    return head;
  }

  /** The stored lines of a statement in line order. */
  function linesOf(dm: DocumentModel, tenantId: string, headId: string): Promise<Row[]> {
    return store.find(dm.lineModel!, tenantId, {
      where: { headId },
      orderBy: [
        { column: dm.lineModel!.fields.get('sort')!.column, dir: 'asc' },
        { column: 'create_time', dir: 'asc' },
        { column: 'id', dir: 'asc' },
      ],
    });
  }

  /** Approved or posted sales-outs and purchase-ins carrying these courier numbers, by number. */
  async function shippedBills(tenantId: string, numbers: string[]): Promise<Map<string, Candidate[]>> {
    const found = new Map<string, Candidate[]>();
    const kinds = [
      { model: services.m('sales-out'), partner: 'customerId', partnerResource: 'customer' },
      { model: services.m('purchase-in'), partner: 'supplierId', partnerResource: 'supplier' },
    ];
    for (const kind of kinds) {
      const rows: Row[] = [];
      for (let i = 0; i < numbers.length; i += CHUNK) {
        rows.push(...(await store.find(kind.model, tenantId, { where: { courierNo: numbers.slice(i, i + CHUNK), billStatus: SHIPPED } })));
      }
      const partnerIds = [...new Set(rows.map((r) => String(r[kind.partner] ?? '')).filter(Boolean))];
      const names = new Map<string, string>();
      for (let i = 0; i < partnerIds.length; i += CHUNK) {
        for (const p of await store.find(services.m(kind.partnerResource), tenantId, { where: { id: partnerIds.slice(i, i + CHUNK) } })) names.set(String(p.id), String(p.bartererName ?? ''));
      }
      const billType = String(kind.model.resource?.document?.billType ?? '');
      for (const r of rows) {
        const key = String(r.courierNo).trim();
        found.set(key, [
          ...(found.get(key) ?? []),
          { billId: String(r.id), billType: String(r.billType || billType), billNo: String(r.billNo ?? ''), partnerName: names.get(String(r[kind.partner] ?? '')) ?? '' },
        ]);
      }
    }
    return found;
  }

  /** Numbers of other live statements (not cancelled, flushed or deleted) that bill these waybills, by waybill. */
  async function otherStatements(dm: DocumentModel, tenantId: string, headId: string, numbers: string[]): Promise<Map<string, string[]>> {
    const lines: Row[] = [];
    for (let i = 0; i < numbers.length; i += CHUNK) {
      for (const l of await store.find(dm.lineModel!, tenantId, { where: { courierNo: numbers.slice(i, i + CHUNK) } })) if (String(l.headId) !== headId) lines.push(l);
    }
    const headIds = [...new Set(lines.map((l) => String(l.headId)))];
    const live = new Map<string, string>();
    for (let i = 0; i < headIds.length; i += CHUNK) {
      for (const h of await store.find(dm.model, tenantId, { where: { id: headIds.slice(i, i + CHUNK) } })) {
        if (!DEAD.includes(String(h.billStatus))) live.set(String(h.id), String(h.billNo ?? ''));
      }
    }
    const out = new Map<string, string[]>();
    for (const l of lines) {
      const billNo = live.get(String(l.headId));
      if (billNo === undefined) continue;
      const key = String(l.courierNo).trim();
      const list = out.get(key) ?? [];
      if (!list.includes(billNo)) list.push(billNo);
      out.set(key, list);
    }
    return out;
  }

  /**
   * Matches every line of the statement by its waybill number and writes the result on the lines
   * and the counts on the head (no version change: matching does not edit the bill).
   */
  async function matchLines(actor: Actor, dm: DocumentModel, headId: string): Promise<MatchCounts> {
    const lines = await linesOf(dm, actor.tenantId, headId);
    const numbers = [...new Set(lines.map((l) => String(l.courierNo ?? '').trim()).filter(Boolean))];
    const bills = await shippedBills(actor.tenantId, numbers);
    const elsewhere = await otherStatements(dm, actor.tenantId, headId, numbers);
    const rowsOf = new Map<string, number[]>();
    lines.forEach((l, i) => {
      const key = String(l.courierNo ?? '').trim();
      rowsOf.set(key, [...(rowsOf.get(key) ?? []), i + 1]);
    });
    const counts: MatchCounts = { total: lines.length, matched: 0, unmatched: 0, ambiguous: 0, repeated: 0 };
    const updates = lines.map((l, i) => {
      const key = String(l.courierNo ?? '').trim();
      const candidates = bills.get(key) ?? [];
      const status = candidates.length === 1 ? MATCHED : candidates.length > 1 ? AMBIGUOUS : UNMATCHED;
      const one = candidates.length === 1 ? candidates[0] : undefined;
      const twins = (rowsOf.get(key) ?? []).filter((n) => n !== i + 1);
      const others = elsewhere.get(key) ?? [];
      const notes: string[] = [];
      if (twins.length) notes.push(`与本单第${twins.join('、')}行重复`);
      if (others.length) notes.push(`已在运输费用单${others.join('、')}中`);
      if (status === AMBIGUOUS) notes.push(`${candidates.length}张单据带此单号：${candidates.map((c) => c.billNo).join('、')}`);
      const repeated = twins.length > 0 || others.length > 0;
      if (status === MATCHED) counts.matched++;
      else counts.unmatched++;
      if (status === AMBIGUOUS) counts.ambiguous++;
      if (repeated) counts.repeated++;
      const info = notes.join('；');
      return {
        id: String(l.id),
        matchStatus: status,
        matchBillId: one?.billId ?? null,
        matchBillType: one?.billType ?? null,
        matchBillNo: one?.billNo ?? null,
        matchPartnerName: one ? one.partnerName.slice(0, 100) : null,
        repeatFlag: repeated ? 2 : 1,
        repeatInfo: info ? info.slice(0, 255) : null,
      };
    });
    const at = formatDateTime();
    await store.updateMany(dm.lineModel!, actor, updates, at);
    await store.updateMany(dm.model, actor, [{ id: headId, matchedCount: counts.matched, unmatchedCount: counts.unmatched, repeatCount: counts.repeated }], at);
    return counts;
  }

  // ───────────── readExcel ─────────────

  services.register('transport.readExcel', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const fields: Record<string, string> = {};
    const read = await readUploadedSheet(ctx, { columns: COLUMNS, required: ['courierNo', 'freightAmt'], titles: TITLES, max: MAX_LINES, fields });
    const given = (name: string) => param(ctx, name) ?? (blank(fields[name]) ? undefined : fields[name].trim());

    // The statement the lines go to: a saved one still editable, or a new draft for the carrier.
    const id = given('id');
    const existing = id ? await mustBill(caller, model, id) : undefined;
    if (existing && !(dm.doc.editable ?? []).includes(String(existing.billStatus))) {
      throw badRequest(`单据当前状态为「${stateName(services, dm, String(existing.billStatus))}」，不能导入明细；只有草稿、已驳回的单据可以导入`);
    }
    const version = existing ? requireVersion({ version: given('version') }) : undefined;
    if (existing && version !== Number(existing.version)) throw conflict('单据已被他人修改，请刷新后重试');
    let carrierId = existing ? String(existing.supplierId ?? '') : (given('supplierId') ?? '');
    if (carrierId && !existing && !(await store.get(services.m('supplier'), caller.tenantId, carrierId))) throw badRequest('承运商不存在或已被删除');
    const carriers = await partnersByCode(services, caller.tenantId, 'supplier', read.map((r) => r.cells.carrierCode));

    const places = await tenantPlaces(services, caller.tenantId);
    const errors: string[] = [];
    const lines: Row[] = [];
    for (const { number, cells } of read) {
      const problems: string[] = [];
      const courierNo = cells.courierNo.trim();
      if (!courierNo) problems.push('请填写运单号');
      else if (courierNo.length > 64) problems.push('运单号不能超过64个字符');
      const amount = toDec(cells.freightAmt);
      let freightAmt: string | undefined;
      if (!cells.freightAmt) problems.push('请填写运费');
      else if (!amount) problems.push(`运费「${cells.freightAmt}」不是有效数字`);
      else {
        freightAmt = fixed(amount, places.amount);
        if (!new Dec(freightAmt).gt(0)) problems.push(`运费「${cells.freightAmt}」必须大于0`);
      }
      const shipDate = cells.shipDate ? cellDate(cells.shipDate) : undefined;
      if (cells.shipDate && !shipDate) problems.push(`发货日期「${cells.shipDate}」不是有效日期（应为YYYY-MM-DD）`);
      const pieces = cells.pieces ? Number(cells.pieces) : undefined;
      if (cells.pieces && !(Number.isInteger(pieces) && pieces! >= 0)) problems.push(`件数「${cells.pieces}」应为不小于0的整数`);
      const weightDec = cells.weight ? toDec(cells.weight) : undefined;
      if (cells.weight && (!weightDec || weightDec.isNegative())) problems.push(`重量「${cells.weight}」应为不小于0的数字`);
      if (cells.destination.length > 100) problems.push('目的地不能超过100个字符');
      if (cells.remark.length > 255) problems.push('备注不能超过255个字符');
      if (cells.carrierCode) {
        const carrier = carriers.get(cells.carrierCode);
        if (!carrier) problems.push(`承运商编码「${cells.carrierCode}」不存在`);
        else if (!carrierId) carrierId = String(carrier.id);
        else if (String(carrier.id) !== carrierId) problems.push(`承运商编码「${cells.carrierCode}」与单据的承运商不一致（一个文件只能是一个承运商）`);
      }
      if (problems.length) {
        errors.push(`第${number}行：${problems.join('，')}`);
        continue;
      }
      lines.push({
        courierNo,
        freightAmt,
        shipDate: shipDate ?? null,
        destination: cells.destination || null,
        pieces: pieces ?? null,
        weight: weightDec ? fixed(weightDec, places.quantity) : null,
        remark: cells.remark || null,
      });
    }
    if (errors.length) throw badRequest(problemsMessage(errors), { errors, total: read.length });
    if (!carrierId) throw badRequest('请选择承运商（参数 supplierId，或文件中的承运商编码列）');

    const days = lines.map((l) => l.shipDate as string | null).filter((d): d is string => Boolean(d)).sort();
    const head: Row = existing ? { id: existing.id, version } : { supplierId: carrierId };
    for (const name of ['statementNo', 'remark'] as const) if (given(name)) head[name] = given(name);
    // The period: as given, else as the statement has it, else the lines' first and last ship dates.
    const periodStart = given('periodStart') ?? (blank(existing?.periodStart) ? days[0] : undefined);
    const periodEnd = given('periodEnd') ?? (blank(existing?.periodEnd) ? days.at(-1) : undefined);
    if (periodStart) head.periodStart = periodStart;
    if (periodEnd) head.periodEnd = periodEnd;
    head.bodyList = lines;

    // Saving and matching in one transaction: the statement is there with its matches, or not at all.
    const { bill, counts } = await store.transaction(async () => {
      const bill = await saveBill(services, caller, dm, 'draft', head);
      const counts = await matchLines(caller, dm, String(bill.id));
      return { bill, counts };
    });
    const saved = (await store.get(model, caller.tenantId, String(bill.id)))!;
    return {
      id: String(saved.id),
      version: saved.version,
      billNo: saved.billNo,
      billStatus: saved.billStatus,
      supplierId: saved.supplierId,
      finalAmt: fixed(String(saved.finalAmt ?? '0'), places.amount),
      ...counts,
    };
  });

  // ───────────── rematch ─────────────

  services.register('transport.rematch', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const head = await mustBill(caller, model, param(ctx, 'id'));
    if (DEAD.includes(String(head.billStatus))) throw badRequest(`单据当前状态为「${stateName(services, dm, String(head.billStatus))}」，不能重新匹配`);
    const counts = await store.transaction(() => matchLines(caller, dm, String(head.id)));
    return { id: String(head.id), billNo: head.billNo, ...counts };
  });

  // ───────────── repeatExport ─────────────

  services.register('transport.repeatExport', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const head = await mustBill(caller, model, param(ctx, 'id'));
    const places = await tenantPlaces(services, caller.tenantId);
    const lines = await linesOf(dm, caller.tenantId, String(head.id));
    const dict = (code: string, key: unknown) => services.registry.dicts.find((d) => d.code === code)?.items.find((i) => i.key === String(key ?? ''))?.value ?? '';
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('重复与未匹配运单');
    sheet.columns = [
      { header: '行号', key: 'sort', width: 8 },
      { header: '运单号', key: 'courierNo', width: 22 },
      { header: '发货日期', key: 'shipDate', width: 12 },
      { header: '目的地', key: 'destination', width: 16 },
      { header: '件数', key: 'pieces', width: 8 },
      { header: '重量(kg)', key: 'weight', width: 10 },
      { header: '运费', key: 'freightAmt', width: 12 },
      { header: '匹配状态', key: 'matchStatus', width: 10 },
      { header: '匹配单据', key: 'matchBillNo', width: 22 },
      { header: '重复运单', key: 'repeatFlag', width: 10 },
      { header: '重复说明', key: 'repeatInfo', width: 36 },
      { header: '备注', key: 'remark', width: 20 },
    ];
    lines.forEach((l, i) => {
      const matched = Number(l.matchStatus) === MATCHED;
      const repeated = Number(l.repeatFlag) === 2;
      if (matched && !repeated) return;
      sheet.addRow({
        sort: i + 1,
        courierNo: l.courierNo ?? '',
        shipDate: l.shipDate ? String(l.shipDate).slice(0, 10) : '',
        destination: l.destination ?? '',
        pieces: l.pieces ?? '',
        weight: blank(l.weight) ? '' : fixed(String(l.weight), places.quantity),
        freightAmt: fixed(String(l.freightAmt ?? '0'), places.amount),
        matchStatus: blank(l.matchStatus) ? '未匹配' : dict('transport_match_status', l.matchStatus),
        matchBillNo: l.matchBillNo ?? '',
        repeatFlag: repeated ? '是' : '否',
        repeatInfo: l.repeatInfo ?? '',
        remark: l.remark ?? '',
      });
    });
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const fileName = encodeURIComponent(`运输费用单${String(head.billNo ?? '')}-重复与未匹配.xlsx`);
    ctx.reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    ctx.reply.header('content-disposition', `attachment; filename*=UTF-8''${fileName}`);
    return new RawReply(content);
  });

  // ───────────── transportApply ─────────────

  services.register('transport.apply', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const body = (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? ctx.body : {}) as Row;
    const id = param(ctx, 'id') ?? (blank(body.id) ? undefined : String(body.id));
    const head = await mustBill(caller, model, id);
    const version = requireVersion({ version: param(ctx, 'version') ?? body.version });
    if (String(head.billStatus) !== '1306') {
      throw badRequest(`单据当前状态为「${stateName(services, dm, String(head.billStatus))}」，不能申请付款；只有「已记账」的运输费用单可以申请付款`);
    }
    if (Number(head.applyStatus) === 2) throw badRequest('该运输费用单已申请付款，不能重复申请');
    const now = formatDateTime();
    const remark = param(ctx, 'remark') ?? (blank(body.remark) ? undefined : String(body.remark));
    const who = await userName(services, caller, caller.userId);
    await store.transaction(async () => {
      const changed = await store.guardedUpdate(model, caller, String(head.id), { applyStatus: 2, applyUser: caller.userId, applyTime: now }, { version, where: { billStatus: '1306' }, at: now });
      if (!changed) throw conflict('单据已被他人修改，请刷新后重试');
      await store.insertMany(services.internal.billAction, caller, [
        { resource: model.name, billId: String(head.id), billType: dm.doc.billType, billNo: head.billNo ?? null, action: 'transportApply', actionName: '付款申请', fromStatus: '1306', toStatus: '1306', remark: remark ?? null, userName: who },
      ]);
    });
    return loadBill(services, caller, dm, String(head.id));
  });

  // ───────────── putTransportheadFile ─────────────

  const ATTACH_LIMIT = 6;
  services.register('transport.putFile', async (ctx, model) => {
    const caller = mustCaller(ctx);
    const dm = documentModel(services, model);
    const annex = services.m('bill-annex');
    let head: Row | undefined;
    let count = 0;
    const file = await receiveUpload(services, ctx, {
      allowed: ['xlsx', 'xls', 'csv', 'pdf', 'jpg', 'jpeg', 'png'],
      limit: 5 * 1024 * 1024,
      before: async (fields) => {
        head = await mustBill(caller, model, param(ctx, 'id') ?? (blank(fields.id) ? undefined : fields.id));
        if (String(head.billStatus) === '1307') throw badRequest('已作废的运输费用单不能上传文件');
        count = await store.count(annex, caller.tenantId, { where: { billId: String(head.id) } });
        if (count >= ATTACH_LIMIT) throw badRequest('当前页面最多可上传六个附件！');
      },
    });
    const bill = head!;
    const billId = String(bill.id);
    await store.transaction(async () => {
      await store.insert(annex, caller, {
        billId,
        billType: dm.doc.billType,
        billNo: bill.billNo ?? null,
        attachId: file.attachId,
        link: file.link,
        domain: file.domain,
        name: file.name,
        originalName: file.originalName,
        extension: file.extension,
        attachSize: file.attachSize,
        sort: count + 1,
      });
      await store.updateMany(model, caller, [{ id: billId, fileAttachId: file.attachId, fileName: file.originalName.slice(0, 500), fileLink: file.link }]);
    });
    return { ...file, billId, billType: dm.doc.billType, billNo: bill.billNo ?? null };
  });
}
