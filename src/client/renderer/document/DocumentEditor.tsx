/**
 * A bill: head form, line grid, the action bar drawn from the transition table, and the history
 * and postings tabs. The same transition table decides on the server; the buttons shown are the
 * ones the bill's state and the user's buttons allow.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Flex, Result, Spin, Tabs, Tag, Typography, theme } from 'antd';
import PrinterOutlined from '@ant-design/icons/es/icons/PrinterOutlined';
import { documentOf, linesResourceOf, NEW_BILL } from '../../../shared/document.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { ApiError, http } from '../../api/http.ts';
import { LineGrid } from '../../bespoke/lines/LineGrid.tsx';
import { LineStore } from '../../bespoke/lines/lineStore.ts';
import { applyServerErrors, type LineValues } from '../../bespoke/lines/lineModel.ts';
import { useSettings } from '../../store/settings.ts';
import { decimalPlaces } from '../common/format.ts';
import { useLabel } from '../common/i18n.ts';
import { dictItemOf, useDictionary } from '../common/useDictionary.ts';
import { useResource } from '../common/useResource.ts';
import { buildLayout } from '../form/layout.ts';
import { fieldErrorsOf, bodyOf } from '../form/record.ts';
import { SchemaForm } from '../form/SchemaForm.tsx';
import { FormStore } from '../form/store.ts';
import { DocumentActions } from './DocumentActions.tsx';
import { BillHistory, BillPostings, BillRelations } from './BillTabs.tsx';
import { SourceButton } from './SourceButton.tsx';
import { SettleBar } from './SettleBar.tsx';
import { ItemsBar, RowsBar } from './ItemsBar.tsx';
import { headFormBlock, loadBill, newBillValues, type Bill } from './documentApi.ts';
import { lineColumnsOf } from './lineColumns.ts';
import { useDT } from './i18n.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

export interface DocumentEditorProps {
  resource: ResourceFile;
  billId?: string;
  /** After a save or an action: the bill as the server answers it. */
  onChanged?(bill: Bill): void;
  /** Shown for reading only (a process approving it decides): no action bar, no source picking. */
  hideActions?: boolean;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

export function DocumentEditor({ resource, billId, onChanged, hideActions }: DocumentEditorProps) {
  const doc = documentOf(resource)!;
  const dt = useDT();
  const label = useLabel();
  const { modal, message } = useFeedback();
  const { token } = theme.useToken();
  const language = useSettings((s) => s.language);
  const lineResourceName = linesResourceOf(resource);
  const lineResource = useResource(lineResourceName).resource;
  const places = useMemo(() => ({ price: decimalPlaces('price'), amount: decimalPlaces('amount'), quantity: decimalPlaces('quantity') }), []);
  // The line grid's columns (none for a bill without lines, a prepayment), the same while the
  // schemas and language stay: new ones make the grid rebuild every column (~100 ms sampled for a
  // 1,000-line bill) on each of the editor's renders.
  const columns = useMemo(() => (lineResource ? lineColumnsOf(resource, lineResource, doc, places, language) : []), [resource, lineResource, doc, places, language]);
  // One line store per bill kind: the same schema arriving again as a new object keeps the lines.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const lines = useMemo(() => new LineStore(doc, places), [resource.resource, places]);
  const [bill, setBill] = useState<Bill | undefined>();
  const [store, setStore] = useState<FormStore>();
  const [failed, setFailed] = useState(false);
  const [tab, setTab] = useState(doc.lines ? 'lines' : 'history');
  const [extrasVersion, setExtrasVersion] = useState(0);
  const [printing, setPrinting] = useState(false);
  const statusItems = useDictionary(resource.entity.properties[doc.statusField]);

  const state = bill ? String(bill[doc.statusField] ?? NEW_BILL) : NEW_BILL;
  const editable = (doc.editable ?? [NEW_BILL]).includes(state);
  const layout = useMemo(() => buildLayout(resource, editable ? (bill ? 'edit' : 'add') : 'view', headFormBlock(resource, doc.lines)), [resource, editable, bill, doc.lines]);

  /** Shows a bill (or a new one): head values into a new form store, lines into the grid. */
  const show = useCallback(
    (next: Bill | undefined, initial: Record<string, unknown> = {}) => {
      setBill(next);
      const nextState = next ? String(next[doc.statusField] ?? NEW_BILL) : NEW_BILL;
      const mode = (doc.editable ?? [NEW_BILL]).includes(nextState) ? (next ? 'edit' : 'add') : 'view';
      const values = { ...(next ?? initial) };
      const lineValues = doc.lines ? ((values[doc.lines] as LineValues[] | undefined) ?? []) : [];
      if (doc.lines) delete values[doc.lines];
      setStore(new FormStore(resource.entity, buildLayout(resource, mode, headFormBlock(resource, doc.lines)), mode, values));
      lines.load(lineValues, !next);
      setExtrasVersion((n) => n + 1);
    },
    [doc, resource, lines],
  );

  // The bill is (re)loaded when the bill or the resource changes by name, not when the same
  // schema arrives again as a new object (a cached copy, then the fetched one): that would rebuild
  // a new bill's form and drop what the clerk has already picked.
  const showRef = useRef(show);
  showRef.current = show;
  const resourceRef = useRef(resource);
  resourceRef.current = resource;
  const resourceName = resource.resource;
  const dateField = doc.dateField ?? 'billDate';
  useEffect(() => {
    setFailed(false);
    if (!billId) {
      showRef.current(undefined, newBillValues(resourceRef.current, dateField));
      return;
    }
    let active = true;
    loadBill(resourceRef.current, billId).then(
      (b) => active && showRef.current(b),
      () => active && setFailed(true),
    );
    return () => {
      active = false;
    };
  }, [billId, resourceName, dateField]);

  // Changing the warehouse with goods entered asks first (spec §5), and clears the lines.
  const depot = useRef<unknown>(undefined);
  useEffect(() => {
    if (!store || !doc.depotField) return undefined;
    const field = doc.depotField;
    // The warehouse and what its picker filled (its name) go back together on cancel.
    const filled = [field, ...Object.keys(store.specOf(field)?.def.fill ?? {})];
    const pick = () => Object.fromEntries(filled.map((f) => [f, store.getValues()[f]]));
    let before = pick();
    depot.current = store.getValues()[field];
    return store.subscribe('values', () => {
      const next = store.getValues()[field];
      const previous = depot.current;
      if (next === previous) {
        before = pick();
        return;
      }
      depot.current = next;
      const restore = before;
      before = pick();
      if (blank(previous) || !lines.all().length) return;
      void modal.confirm({ title: dt('doc.changeDepot') }).then(
        (ok) => {
          if (ok) lines.load([]);
          else {
            depot.current = previous;
            store.patch(restore);
          }
        },
        () => undefined,
      );
    });
  }, [store, doc.depotField, lines, modal, dt]);

  // A new line starts with the head's warehouse and the partner's default tax rate.
  const partnerRate = useRef<{ taxRate?: string; taxRateId?: string }>({});
  const [partnerId, setPartnerId] = useState<string | undefined>();
  useEffect(() => {
    if (!store || !doc.partnerField) return undefined;
    const field = doc.partnerField;
    const read = () => setPartnerId(blank(store.getValues()[field]) ? undefined : String(store.getValues()[field]));
    read();
    return store.subscribe('values', read);
  }, [store, doc.partnerField]);
  useEffect(() => {
    partnerRate.current = {};
    // A money bill has no goods lines to give a tax rate to.
    if (!partnerId || doc.settle) return;
    http
      .get<{ id?: string; taxRate?: string } | null>('/api/blade-base/taxrate/queryDefaultByBarterer', { bartererId: partnerId }, { silent: true })
      .then((rate) => {
        if (rate) partnerRate.current = { taxRate: String(rate.taxRate ?? ''), taxRateId: String(rate.id ?? '') };
      })
      .catch(() => undefined);
  }, [partnerId, doc.settle]);
  const lineDefaults = useCallback((): LineValues => {
    const head = store?.getValues() ?? {};
    return { ...(doc.depotField && !blank(head[doc.depotField]) ? { depotId: head[doc.depotField] } : {}), ...partnerRate.current, isGift: 1 };
  }, [store, doc.depotField]);

  const collect = useCallback((): Record<string, unknown> | undefined => {
    if (!store) return undefined;
    const problems = store.validateAll();
    if (problems.length) {
      store.revealField(problems[0]);
      return undefined;
    }
    // A line the calculation cannot use is named before anything is sent (spec: 请选择税率，无税请选0).
    const lineProblems = lines.problems();
    if (lineProblems.length) {
      void message.error(lineProblems[0]);
      return undefined;
    }
    const body: Record<string, unknown> = { ...bodyOf(store.snapshot()) };
    if (doc.lines) body[doc.lines] = lines.snapshot();
    return body;
  }, [store, doc.lines, lines, message]);

  const onRefused = useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError) || !store) return;
      const data = (error.body as { data?: { lineErrors?: { index: number; id?: string; field: string; message: string }[] } } | undefined)?.data;
      if (data?.lineErrors?.length) lines.setErrors(applyServerErrors(lines.all(), data.lineErrors));
      const fieldErrors = Object.fromEntries(Object.entries(fieldErrorsOf(error, layout)).filter(([path]) => !path.startsWith(`${doc.lines}.`)));
      if (Object.keys(fieldErrors).length) store.setErrors(fieldErrors);
    },
    [store, lines, layout, doc.lines],
  );

  // Printing needs the bill as saved (spec §5: 请先保存！); the print module loads on first use.
  const print = () => {
    if (!bill) {
      void message.warning(dt('doc.saveFirst'));
      return;
    }
    setPrinting(true);
    import('../../bespoke/print/printBill.ts')
      .then((m) => m.printBill(resource, bill))
      .finally(() => setPrinting(false));
  };

  if (failed) return <Result status="warning" title="单据不存在或已被删除" />;
  if (!store || (doc.lines && !lineResource)) {
    return (
      <Flex align="center" justify="center" style={{ minHeight: 240 }}>
        <Spin />
      </Flex>
    );
  }
  const status = dictItemOf(statusItems, state);
  // Rule lines without goods (整单促销's tiers) are typed in row by row.
  const goodsLines = columns.some((c) => c.field === 'commInfoId');
  const side = doc.amounts?.price?.startsWith('purchase') ? 'purchase' : 'sales';
  const linesProp = doc.lines ? resource.entity.properties[doc.lines] : undefined;
  return (
    <Flex vertical gap={12} data-testid={`document-${resource.resource}`} style={{ background: token.colorBgContainer, padding: 12, borderRadius: token.borderRadiusLG }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Flex align="center" gap={12}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {label(resource.title, resource.titleEn)}
          </Typography.Title>
          <Typography.Text copyable={bill ? { text: String(bill[doc.numberField] ?? '') } : false} data-testid="bill-no">
            {bill ? String(bill[doc.numberField] ?? '') : dt('doc.newBill', { title: label(resource.title, resource.titleEn) })}
          </Typography.Text>
          {bill && (
            <Tag color={status?.color ?? 'default'} data-testid="bill-status">
              {status ? label(status.dictValue, status.valueEn) : state}
            </Tag>
          )}
        </Flex>
        <Flex gap={8} wrap>
          {!hideActions && editable && doc.source && <SourceButton resource={resource} doc={doc} onDraft={(draft) => show(undefined, draft)} />}
          {!hideActions && (
            <DocumentActions
              resource={resource}
              doc={doc}
              bill={bill}
              state={state}
              collect={collect}
              onRefused={onRefused}
              onDone={(next) => {
                show(next.isDeleted ? undefined : next);
                onChanged?.(next);
              }}
              onNew={() => show(undefined, newBillValues(resource, doc.dateField ?? 'billDate'))}
              depot={() => (doc.depotField ? store.getValues()[doc.depotField] : undefined)}
            />
          )}
          <Button icon={<PrinterOutlined />} loading={printing} onClick={print} data-testid="doc-print">
            {dt('doc.print')}
          </Button>
        </Flex>
      </Flex>
      <SchemaForm store={store} />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          ...(doc.lines
            ? [
                {
                  key: 'lines',
                  label: doc.items || doc.lineCheck ? label(String(linesProp?.title ?? ''), linesProp?.['x-titleEn'] as string | undefined) : dt(doc.settle ? 'doc.settleLines' : 'doc.lines'),
                  children: (
                    <LineGrid
                      store={lines}
                      columns={columns}
                      readOnly={!editable}
                      defaults={lineDefaults}
                      partnerId={partnerId}
                      side={side}
                      layoutKey={resource.resource}
                      toolbar={
                        doc.settle ? (
                          <SettleBar resource={resource} doc={doc} lines={lines} partnerId={partnerId} />
                        ) : doc.items && lineResource ? (
                          <ItemsBar lineResource={lineResource} doc={doc} lines={lines} head={() => store.getValues()} />
                        ) : doc.lineCheck && !goodsLines ? (
                          <RowsBar lines={lines} />
                        ) : undefined
                      }
                    />
                  ),
                },
              ]
            : []),
          ...(bill
            ? [
                { key: 'history', label: dt('doc.history'), children: <BillHistory resource={resource} id={String(bill.id)} version={extrasVersion} /> },
                ...(doc.posting ? [{ key: 'postings', label: dt('doc.postings'), children: <BillPostings resource={resource} id={String(bill.id)} version={extrasVersion} /> }] : []),
                { key: 'relations', label: dt('doc.relations'), children: <BillRelations resource={resource} id={String(bill.id)} billType={String(bill.billType || doc.billType)} version={extrasVersion} /> },
              ]
            : []),
        ]}
      />
    </Flex>
  );
}

export default DocumentEditor;
