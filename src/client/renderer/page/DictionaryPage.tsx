import { useMemo, useState } from 'react';
import { Flex, Typography } from 'antd';
import type { ResourceFile } from '../../../shared/resource.ts';
import { useRT } from '../common/i18n.ts';
import type { Row } from '../common/params.ts';
import { endpointByOp, listColumnsOf } from '../common/views.ts';
import ListPage from '../list/ListPage.tsx';
import type { DictionaryLayout } from './pageTarget.ts';

/** Parent rows define a dictionary (code, name); their key and parent columns mean nothing. */
const PARENT_ONLY_HIDDEN = new Set(['dictKey', 'parentId', 'parentName']);
const CHILD_HIDDEN = new Set(['parentId', 'parentName']);

/**
 * Dictionary management: the parent list (parent-list, parentId 0) and the items of the chosen
 * parent (child-list?parentId=), side by side or stacked. A new item starts with the parent's
 * id and code.
 */
export default function DictionaryPage({ resource, layout }: { resource: ResourceFile; layout: DictionaryLayout }) {
  const t = useRT();
  const [parent, setParent] = useState<Row | undefined>();
  const columns = useMemo(() => listColumnsOf(resource), [resource]);
  const parentColumns = useMemo(() => columns.filter((c) => !PARENT_ONLY_HIDDEN.has(c.field)), [columns]);
  const childColumns = useMemo(() => columns.filter((c) => !CHILD_HIDDEN.has(c.field)), [columns]);
  const parentPath = endpointByOp(resource, 'parentList')?.path;
  const childPath = endpointByOp(resource, 'childList')?.path;
  const parentId = parent ? String(parent.id) : undefined;
  const fixedParams = useMemo(() => (parentId ? { parentId } : undefined), [parentId]);
  const addPreset = useMemo(() => (parent ? { parentId: String(parent.id), code: parent.code } : undefined), [parent]);
  const horizontal = layout === 'horizontal';
  // Stacked: ten rows of 30 px and the header fit without scrolling.
  const gridHeight = horizontal ? undefined : 342;
  const parentName = parent ? String(parent.dictValue ?? parent.code ?? '') : '';

  const parentList = (
    <ListPage
      resource={resource}
      endpointPath={parentPath}
      columns={parentColumns}
      stateKey="dictParent"
      title={<Typography.Text strong>{t('dict.parentTitle')}</Typography.Text>}
      currentRowId={parentId}
      onRowClicked={setParent}
      gridHeight={gridHeight}
      narrow={horizontal}
      addPreset={{ parentId: '0' }}
    />
  );
  const childList = (
    <ListPage
      resource={resource}
      endpointPath={childPath}
      columns={childColumns}
      stateKey="dictChild"
      enabled={Boolean(parent)}
      fixedParams={fixedParams}
      addPreset={addPreset}
      title={
        <Typography.Text strong>
          {parent
            ? t('dict.childOf', { name: parentName })
            : `${t('dict.childTitle')}（${t(horizontal ? 'dict.pickParent' : 'dict.pickParentAbove')}）`}
        </Typography.Text>
      }
      gridHeight={gridHeight}
      narrow={horizontal}
    />
  );

  return (
    <Flex
      vertical={!horizontal}
      gap={12}
      style={{ height: horizontal ? '100%' : undefined, minHeight: horizontal ? 480 : undefined }}
      data-testid={`dictionary-${layout}`}
    >
      <div style={{ flex: '1 1 0', minWidth: 0 }}>{parentList}</div>
      <div style={{ flex: '1 1 0', minWidth: 0 }}>{childList}</div>
    </Flex>
  );
}
