import { useEffect, useMemo, useState } from 'react';
import { Empty, Input, Modal, Spin, Tree } from 'antd';
import type { DataNode, EventDataNode } from 'antd/es/tree';
import { useFT } from '../form/i18n.ts';
import { fetchTree, type TreeNode } from './api.ts';
import { pickerSubject, type ResolvedPicker } from './definition.ts';
import { useFeedback } from '../../feedback/FeedbackProvider.tsx';

export const ROOT_KEY = '__root__';

interface Props {
  open: boolean;
  picker: ResolvedPicker;
  multiple: boolean;
  /** Values chosen before (pre-checked). */
  value: string[];
  onCancel(): void;
  onOk(nodes: TreeNode[]): void;
}

interface PickerNode extends DataNode {
  key: string;
  source?: TreeNode;
  children?: PickerNode[];
}

function toDataNodes(nodes: TreeNode[], valueField: string, labelField: string): PickerNode[] {
  return nodes.map((node) => ({
    key: String(node[valueField] ?? node.key),
    title: String(node[labelField] ?? node.title),
    source: node,
    isLeaf: node.children?.length ? false : node.hasChildren === undefined ? true : !node.hasChildren,
    children: node.children?.length ? toDataNodes(node.children, valueField, labelField) : undefined,
  }));
}

function hasChildren(node: TreeNode | undefined): boolean {
  return Boolean(node && (node.children?.length || node.hasChildren));
}

function filterTree(nodes: PickerNode[], text: string): PickerNode[] {
  if (!text) return nodes;
  const out: PickerNode[] = [];
  for (const node of nodes) {
    const children = node.children ? filterTree(node.children, text) : [];
    if (String(node.title).includes(text) || children.length)
      out.push({ ...node, children: children.length ? children : node.children });
  }
  return out;
}

function replaceChildren(nodes: PickerNode[], key: string, children: PickerNode[]): PickerNode[] {
  return nodes.map((node) => {
    if (node.key === key) return { ...node, children, isLeaf: !children.length };
    if (node.children) return { ...node, children: replaceChildren(node.children, key, children) };
    return node;
  });
}

/**
 * Tree picker dialog (供应商分类选择 / 客户分类选择 …): a root "all" node that cannot be chosen
 * (不可选择全部), the empty-confirm message (请选择供应商分类), last-level-only (请选择末级节点！),
 * double-click to confirm, OK / Cancel. Multiple mode checks nodes instead.
 */
export function TreePickerDialog({ open, picker, multiple, value, onCancel, onOk }: Props) {
  const t = useFT();
  const { message } = useFeedback();
  const [nodes, setNodes] = useState<PickerNode[]>([]);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>(value);
  const [filter, setFilter] = useState('');
  const byKey = useMemo(() => {
    const map = new Map<string, TreeNode>();
    const visit = (list: PickerNode[]) =>
      list.forEach((node) => {
        if (node.source) map.set(node.key, node.source);
        if (node.children) visit(node.children);
      });
    visit(nodes);
    return map;
  }, [nodes]);

  useEffect(() => {
    if (!open) return;
    setSelected(value);
    setFilter('');
    let active = true;
    setLoading(true);
    const params = picker.lazyParam ? { [picker.lazyParam]: picker.lazyParam === 'parentCode' ? '00' : '0' } : {};
    fetchTree(picker.url, params, picker.answerKey)
      .then((tree) => active && setNodes(toDataNodes(tree, picker.valueField, picker.labelField)))
      .catch(() => active && setNodes([]))
      .finally(() => active && setLoading(false));
    return () => {
      active = false;
    };
    // Reload on every opening: categories change while the page is open.
  }, [open, picker, value]);

  const loadChildren = async (node: EventDataNode<PickerNode>) => {
    if (!picker.lazyParam || node.children?.length || node.key === ROOT_KEY) return;
    const children = await fetchTree(picker.url, { [picker.lazyParam]: node.key }, picker.answerKey).catch(() => []);
    setNodes((current) =>
      replaceChildren(current, node.key, toDataNodes(children, picker.valueField, picker.labelField)),
    );
  };

  const subject = pickerSubject(picker);
  const refuse = (text: string) => {
    void message.warning(text);
    return false;
  };

  const confirm = (keys: string[]): boolean => {
    if (!keys.length) return refuse(picker.emptyMessage ?? t('picker.pickOne', { title: subject }));
    if (keys.includes(ROOT_KEY)) return refuse(t('picker.notAll'));
    const chosen = keys.map((key) => byKey.get(key)).filter((node): node is TreeNode => Boolean(node));
    if (picker.lastLevelOnly && chosen.some(hasChildren)) return refuse(t('picker.lastLevel'));
    if (picker.max && chosen.length > picker.max) return refuse(t('picker.max', { max: picker.max, title: subject }));
    // Values picked earlier but not loaded (lazy trees) are kept as they were.
    const kept = keys.filter((key) => !byKey.has(key)).map((key) => ({ id: key, parentId: '', key, value: key, title: key }));
    onOk([...chosen, ...kept]);
    return true;
  };

  const visible = useMemo(() => filterTree(nodes, filter.trim()), [nodes, filter]);
  const treeData: PickerNode[] = picker.rootTitle
    ? [{ key: ROOT_KEY, title: picker.rootTitle, children: visible, isLeaf: false }]
    : visible;

  return (
    <Modal
      open={open}
      title={picker.title}
      width={480}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      onCancel={onCancel}
      onOk={() => confirm(selected)}
      destroyOnHidden
      styles={{ body: { height: 420, display: 'flex', flexDirection: 'column', gap: 8 } }}
    >
      <Input.Search
        allowClear
        placeholder={t('picker.keyword')}
        onSearch={setFilter}
        onChange={(e) => !e.target.value && setFilter('')}
      />
      <div style={{ flex: 1, overflow: 'auto' }} data-testid="tree-picker">
        <Spin spinning={loading}>
          {/* Mounted once the data is there, so default expansion applies to it. */}
          {!loading && treeData.length ? (
            <Tree<PickerNode>
              treeData={treeData}
              blockNode
              defaultExpandedKeys={[ROOT_KEY]}
              defaultExpandAll={!picker.lazyParam && byKey.size <= 200}
              loadData={picker.lazyParam ? loadChildren : undefined}
              checkable={multiple}
              checkStrictly={multiple}
              checkedKeys={multiple ? { checked: selected, halfChecked: [] } : undefined}
              selectedKeys={multiple ? [] : selected}
              onCheck={(checked) => setSelected((Array.isArray(checked) ? checked : checked.checked).map(String))}
              onSelect={(keys, info) => {
                if (multiple) {
                  const key = String(info.node.key);
                  setSelected((current) =>
                    current.includes(key) ? current.filter((k) => k !== key) : [...current, key],
                  );
                } else {
                  setSelected(keys.length ? keys.map(String) : [String(info.node.key)]);
                }
              }}
              onDoubleClick={(_, node) => {
                if (!multiple) confirm([String(node.key)]);
              }}
            />
          ) : (
            !loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('picker.empty')} />
          )}
        </Spin>
      </div>
    </Modal>
  );
}
