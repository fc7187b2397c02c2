import { useCallback, useEffect, useMemo, useState, type Key } from 'react';
import { ConfigProvider, Table, theme, type TableColumnsType } from 'antd';
import type { QueryValue } from '../../api/http.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { RecordDialog, type RecordDialogState } from '../form/RecordDialog.tsx';
import { useLabel, useRT } from '../common/i18n.ts';
import { columnTitle } from '../common/labels.ts';
import type { Row } from '../common/params.ts';
import { useDictionaries } from '../common/useDictionary.ts';
import { fieldOf, isLazyTree, listColumnsOf } from '../common/views.ts';
import { useSettings } from '../../store/settings.ts';
import { useListCapabilities } from '../list/capabilities.ts';
import { ValueCell } from '../list/cells.tsx';
import { ListToolbar } from '../list/ListToolbar.tsx';
import { RowActionButtons, actionsColumnWidth, columnWidth, type RowButton } from '../list/RowActions.tsx';
import { SearchForm } from '../list/SearchForm.tsx';
import { initialSearchValues, searchFieldsOf, toFilterParams } from '../list/searchParams.ts';
import { useActionRunner } from '../list/useActionRunner.tsx';
import { recordActionLabels, recordRowButtons } from '../list/rowButtons.ts';
import { keyOf, loadChildren, loadTree, treeShapeOf, withChildren } from './treeData.ts';


/** Tree table (departments, menus, regions): nested list, or children loaded on expand. */
export default function TreePage({ resource }: { resource: ResourceFile }) {
  const { token } = theme.useToken();
  const t = useRT();
  const label = useLabel();
  const language = useSettings((s) => s.language);
  const shape = useMemo(() => treeShapeOf(resource), [resource]);
  const lazy = useMemo(() => isLazyTree(resource), [resource]);
  const columns = useMemo(() => listColumnsOf(resource), [resource]);
  const searchDefs = useMemo(() => searchFieldsOf(resource), [resource]);
  const fields = useMemo(
    () => Object.fromEntries(columns.map((c) => [c.field, fieldOf(resource, c.field)])),
    [resource, columns],
  );
  const dictionaries = useDictionaries(fields);
  const caps = useListCapabilities(resource);
  const [filters, setFilters] = useState<Record<string, QueryValue>>({});
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [selected, setSelected] = useState<Row[]>([]);
  const [dialog, setDialog] = useState<RecordDialogState | undefined>();
  const [reloadCount, setReloadCount] = useState(0);
  const reload = useCallback(() => setReloadCount((n) => n + 1), []);
  const runner = useActionRunner(resource, reload);

  useEffect(() => {
    let active = true;
    setLoading(true);
    loadTree(resource, shape, lazy, filters).then(
      (loaded) => {
        if (!active) return;
        setRows(loaded);
        setExpanded([]);
        setLoading(false);
      },
      () => active && setLoading(false),
    );
    return () => {
      active = false;
    };
  }, [resource, shape, lazy, filters, reloadCount]);

  const onExpand = useCallback(
    (open: boolean, row: Row) => {
      if (!open || !lazy || (Array.isArray(row.children) && row.children.length)) return;
      const key = keyOf(shape, row);
      loadChildren(resource, shape, key).then(
        (children) => setRows((current) => withChildren(current, shape, key, children)),
        () => undefined,
      );
    },
    [resource, shape, lazy],
  );

  const rowButtons = useCallback(
    (row: Row): RowButton[] => {
      const addChild: RowButton[] = caps.canAdd
        ? [
            {
              key: '__addChild',
              label: t('tree.addChild'),
              onClick: () => setDialog({ mode: 'add', initial: { [shape.parentField]: keyOf(shape, row) } }),
            },
          ]
        : [];
      return [...addChild, ...recordRowButtons(row, { caps, t, label, runner, openDialog: setDialog })];
    },
    [caps, shape, t, label, runner],
  );

  const tableColumns = useMemo<TableColumnsType<Row>>(() => {
    const labels = [...(caps.canAdd ? [t('tree.addChild')] : []), ...recordActionLabels({ caps, t, label })];
    const data: TableColumnsType<Row> = columns
      .filter((column) => !column.hidden)
      .map((column) => ({
        key: column.field,
        dataIndex: column.field,
        title: columnTitle(resource, column, language),
        width: columnWidth(columnTitle(resource, column, language), column.width),
        fixed: column.fixed,
        align: column.align,
        ellipsis: column.ellipsis,
        render: (value: unknown) => (
          <ValueCell
            field={fields[column.field]}
            column={column}
            value={value}
            dictionary={dictionaries[column.field]}
          />
        ),
      }));
    if (!labels.length) return data;
    return [
      ...data,
      {
        key: '__actions',
        title: t('list.actions'),
        fixed: 'right',
        width: actionsColumnWidth(labels),
        render: (_: unknown, row: Row) => <RowActionButtons buttons={rowButtons(row)} />,
      },
    ];
  }, [columns, resource, language, fields, dictionaries, caps, rowButtons, t, label]);

  return (
    <div
      style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, padding: 12, minHeight: '100%' }}
      data-testid={`tree-${resource.resource}`}
    >
      <SearchForm
        resource={resource}
        defs={searchDefs}
        initialValues={initialSearchValues(searchDefs)}
        onSearch={(values) => setFilters(toFilterParams(resource, searchDefs, values))}
      />
      <ListToolbar
        resource={resource}
        canAdd={caps.canAdd}
        canDelete={caps.canDelete}
        actions={caps.toolbarActions}
        onAdd={() => setDialog({ mode: 'add', initial: { [shape.parentField]: shape.rootValue } })}
        onDelete={() => runner.remove(selected, true)}
        onAction={(action) => runner.run(action, selected)}
        onImported={reload}
        onRefresh={reload}
      />
      {/* Compact rows (spec §9 row height 30) in the tree table too. */}
      <ConfigProvider theme={{ components: { Table: { cellPaddingBlockSM: 4 } } }}>
        <Table<Row>
          size="small"
          bordered
          sticky
          rowKey={(row) => keyOf(shape, row)}
          columns={tableColumns}
          dataSource={rows}
          loading={loading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('list.empty') }}
          rowSelection={{ onChange: (_keys, picked) => setSelected(picked), checkStrictly: true }}
          expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]), onExpand }}
        />
      </ConfigProvider>
      <RecordDialog
        resource={resource}
        state={dialog}
        onDone={(saved) => {
          setDialog(undefined);
          if (saved) reload();
        }}
      />
      {runner.element}
    </div>
  );
}
