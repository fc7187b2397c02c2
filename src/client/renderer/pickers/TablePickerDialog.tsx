import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Input, Modal, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ResourceFile } from '../../../shared/resource.ts';
import type { QueryValue } from '../../api/http.ts';
import { useSettings } from '../../store/settings.ts';
import { formatCell } from '../common/format.ts';
import { columnTitle } from '../common/labels.ts';
import { useDictionaries } from '../common/useDictionary.ts';
import { fieldOf, type SearchFieldDef } from '../common/views.ts';
import { useFT } from '../form/i18n.ts';
import { injectFormStyles } from '../form/styles.ts';
import { fetchPage, type Row } from './api.ts';
import { SearchInput } from './SearchInput.tsx';
import { pickerSubject, type ResolvedPicker } from './definition.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

/** Spec §2: picker dialogs show 10 rows in a 352px table; goods keyword search waits 1500 ms. */
export const TABLE_HEIGHT = 352;
export const KEYWORD_DEBOUNCE_MS = 1500;

interface Props {
  open: boolean;
  resource: ResourceFile;
  picker: ResolvedPicker;
  multiple: boolean;
  /** Rows chosen before (pre-selected). */
  selected: Row[];
  /** Values already used elsewhere (lines): picking one again gives 已选数据不可重复！ */
  exclude?: string[];
  /** Sent with every read (a bill's kind narrowing its items: expendType=6002). */
  params?: Record<string, QueryValue>;
  onCancel(): void;
  onOk(rows: Row[]): void;
}

function paramName(field: SearchFieldDef): string {
  if (field.param) return field.param;
  switch (field.op) {
    case 'equal':
      return `${field.field}_equal`;
    case 'ge':
      return `${field.field}_ge`;
    case 'le':
      return `${field.field}_le`;
    default:
      return field.field;
  }
}

/**
 * Generic single/multi picker: search fields from the picker block (or a keyword box in
 * search-engine mode), server paging, 暂无数据 with the selection cleared when nothing matches,
 * 最多选择N个<title>, 已选数据不可重复！, the picker's empty-choice message, double-click to pick one.
 */
export function TablePickerDialog({ open, resource, picker, multiple, selected, exclude, params: fixedParams, onCancel, onOk }: Props) {
  injectFormStyles();
  const t = useFT();
  const { message } = useFeedback();
  const language = useSettings((s) => s.language);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [query, setQuery] = useState<Record<string, string>>({});
  const [current, setCurrent] = useState(1);
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<Map<string, Row>>(new Map());
  const keywordTimer = useRef<number | undefined>(undefined);
  const fixedKey = JSON.stringify(fixedParams ?? {});
  const valueOf = useCallback((row: Row) => String(row[picker.valueField] ?? ''), [picker.valueField]);

  // The choice starts from `selected` when the dialog opens, not on every render of the caller:
  // a caller passing a new array each render (selected={[]}) would otherwise wipe the user's ticks.
  const wasOpen = useRef(false);
  useEffect(() => {
    const opening = open && !wasOpen.current;
    wasOpen.current = open;
    if (!opening) return;
    setChosen(new Map(selected.map((row) => [valueOf(row), row])));
    // Keep the same objects when already empty: a new one would fetch the page twice.
    setDraft((d) => (Object.keys(d).length ? {} : d));
    setQuery((q) => (Object.keys(q).length ? {} : q));
    setCurrent(1);
  }, [open, selected, valueOf]);

  useEffect(() => () => window.clearTimeout(keywordTimer.current), []);

  useEffect(() => {
    if (!open) return;
    let active = true;
    setLoading(true);
    const params: Record<string, QueryValue> = { ...JSON.parse(fixedKey) };
    for (const [key, value] of Object.entries(query)) if (value.trim()) params[key] = value.trim();
    fetchPage(picker.url, params, current, picker.pageSize)
      .then((page) => {
        if (!active) return;
        setRows(page.records);
        setTotal(page.total);
        // Spec §2: no results shows 暂无数据 and clears the selection.
        if (!page.records.length) setChosen(new Map());
      })
      .catch(() => active && setRows([]))
      .finally(() => active && setLoading(false));
    return () => {
      active = false;
    };
  }, [open, picker, query, current, fixedKey]);

  const fields = useMemo(
    () => Object.fromEntries(picker.columns.map((column) => [column.field, fieldOf(resource, column.field)])),
    [picker.columns, resource],
  );
  const dictionaries = useDictionaries(fields);
  const columns: ColumnsType<Row> = useMemo(
    () =>
      picker.columns.map((column) => ({
        key: column.field,
        dataIndex: column.field,
        title: columnTitle(resource, column, language),
        width: column.width,
        ellipsis: true,
        render: (value: unknown) => formatCell(fields[column.field], column, value, dictionaries[column.field]),
      })),
    [picker.columns, resource, language, fields, dictionaries],
  );

  // Search-engine mode sends the words as `keyword`; the label field carries them too, so a
  // server without keyword search still filters by name.
  const keywordQuery = (keyword: string) => ({ keyword, [picker.labelField]: keyword });

  const search = (next: Record<string, string>) => {
    setCurrent(1);
    setQuery(next);
  };

  const subject = pickerSubject(picker);
  const confirm = (picked: Row[]) => {
    if (!picked.length) {
      void message.warning(picker.emptyMessage ?? t('picker.pickOne', { title: subject }));
      return;
    }
    if (picker.max && picked.length > picker.max) {
      void message.warning(t('picker.max', { max: picker.max, title: subject }));
      return;
    }
    const values = picked.map(valueOf);
    const repeated = new Set(values).size !== values.length || values.some((value) => exclude?.includes(value));
    if (repeated) {
      void message.warning(t('picker.duplicate'));
      return;
    }
    onOk(picked);
  };

  const toggle = (row: Row) => {
    const key = valueOf(row);
    setChosen((currentMap) => {
      const next = new Map(multiple ? currentMap : []);
      if (currentMap.has(key) && multiple) next.delete(key);
      else next.set(key, row);
      return next;
    });
  };

  const searchBar = picker.keywordSearch ? (
    <Input.Search
      allowClear
      placeholder={t('picker.keyword')}
      value={draft.keyword ?? ''}
      onChange={(event) => {
        const keyword = event.target.value;
        setDraft({ keyword });
        window.clearTimeout(keywordTimer.current);
        keywordTimer.current = window.setTimeout(() => search(keywordQuery(keyword)), KEYWORD_DEBOUNCE_MS);
      }}
      onSearch={(keyword) => {
        window.clearTimeout(keywordTimer.current);
        search(keywordQuery(keyword));
      }}
    />
  ) : picker.search.length ? (
    <Space wrap>
      {picker.search.map((field) => {
        const name = paramName(field);
        const title = field.title ?? columnTitle(resource, { field: field.field }, language);
        return (
          <SearchInput
            key={name}
            def={field}
            field={fieldOf(resource, field.field)}
            title={title}
            value={draft[name] ?? ''}
            onChange={(value) => setDraft((d) => ({ ...d, [name]: value }))}
            onEnter={() => search(draft)}
          />
        );
      })}
      <Button type="primary" onClick={() => search(draft)}>
        {t('picker.search')}
      </Button>
      <Button
        onClick={() => {
          setDraft({});
          search({});
        }}
      >
        {t('picker.reset')}
      </Button>
    </Space>
  ) : null;

  return (
    <Modal
      open={open}
      title={picker.title}
      width={Math.max(640, Math.min(1000, picker.columns.length * 160 + 80))}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      onCancel={onCancel}
      onOk={() => confirm([...chosen.values()])}
      destroyOnHidden
    >
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        {searchBar}
        <Table<Row>
          className="erp-picker-table"
          size="small"
          rowKey={valueOf}
          columns={columns}
          dataSource={rows}
          loading={loading}
          scroll={{ y: TABLE_HEIGHT }}
          locale={{ emptyText: t('picker.empty') }}
          rowSelection={{
            type: multiple ? 'checkbox' : 'radio',
            selectedRowKeys: [...chosen.keys()],
            preserveSelectedRowKeys: true,
            onChange: (_, picked) => {
              setChosen((currentMap) => {
                // Keep choices from other pages; replace those of this page.
                const next = new Map(multiple ? currentMap : []);
                if (multiple) for (const row of rows) next.delete(valueOf(row));
                for (const row of picked) if (row) next.set(valueOf(row), row);
                return next;
              });
            },
          }}
          onRow={(row) => ({
            onClick: () => toggle(row),
            onDoubleClick: () => {
              if (!multiple) confirm([row]);
            },
          })}
          pagination={{
            current,
            pageSize: picker.pageSize,
            total,
            size: 'small',
            showSizeChanger: false,
            showTotal: (count) => t('picker.total', { total: count }),
            onChange: setCurrent,
          }}
        />
        {multiple && <span>{t('picker.selected', { count: chosen.size })}</span>}
      </div>
    </Modal>
  );
}
