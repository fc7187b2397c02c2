import { useEffect, useState } from 'react';
import { Cascader } from 'antd';
import { http } from '../../api/http.ts';
import { useFT } from '../form/i18n.ts';
import { fetchTree, type TreeNode } from './api.ts';

/** The region tree: codes keyed, root parentCode 00, provinces → cities → districts (leaf at level 2). */
export const REGION_LAZY_TREE = '/api/blade-system/region/lazy-tree';
export const REGION_DETAIL = '/api/blade-system/region/detail';
export const REGION_ROOT = '00';

export interface AreaCascaderProps {
  /** The last code of the chosen path (a district by default). */
  value?: string;
  /** The last code, and the names along the path (for areaName). */
  onChange(code: string | undefined, names: string[]): void;
  /** Levels shown: 3 = province / city / district. */
  levels?: number;
  disabled?: boolean;
  invalid?: boolean;
  placeholder?: string;
  id?: string;
  size?: 'small' | 'middle';
}

interface AreaOption {
  value: string;
  label: string;
  isLeaf: boolean;
  level: number;
  children?: AreaOption[];
}

function toOptions(nodes: TreeNode[], level: number, levels: number): AreaOption[] {
  return nodes.map((node) => ({
    value: String(node.value ?? node.key),
    label: String(node.title),
    level,
    isLeaf: level >= levels - 1 || node.hasChildren === false,
  }));
}

function setChildren(options: AreaOption[], path: string[], children: AreaOption[]): AreaOption[] {
  const [head, ...rest] = path;
  return options.map((option) => {
    if (option.value !== head) return option;
    if (!rest.length) return { ...option, children };
    return { ...option, children: setChildren(option.children ?? [], rest, children) };
  });
}

/** Codes from the root to `code` (exclusive of 00), read from the region's ancestors. */
async function pathOf(code: string): Promise<string[]> {
  const detail = await http
    .get<{ ancestors?: string } | null>(REGION_DETAIL, { code }, { silent: true })
    .catch(() => null);
  const ancestors = (detail?.ancestors ?? '').split(',').filter((part) => part && part !== REGION_ROOT);
  return [...ancestors, code];
}

/** Province / city / district cascader on the lazy region tree; the value is the last code. */
export function AreaCascader({
  value,
  onChange,
  levels = 3,
  disabled,
  invalid,
  placeholder,
  id,
  size,
}: AreaCascaderProps) {
  const t = useFT();
  const [options, setOptions] = useState<AreaOption[]>([]);
  const [path, setPath] = useState<string[]>([]);

  useEffect(() => {
    let active = true;
    fetchTree(REGION_LAZY_TREE, { parentCode: REGION_ROOT })
      .then((nodes) => active && setOptions((current) => (current.length ? current : toOptions(nodes, 0, levels))))
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [levels]);

  // A value set from outside: load the levels along its path so the labels show.
  useEffect(() => {
    if (!value) {
      setPath([]);
      return;
    }
    if (path[path.length - 1] === value) return;
    let active = true;
    (async () => {
      const codes = (await pathOf(value)).slice(0, levels);
      let tree = options.length
        ? options
        : toOptions(await fetchTree(REGION_LAZY_TREE, { parentCode: REGION_ROOT }), 0, levels);
      for (let level = 0; level < codes.length - 1; level += 1) {
        const children = await fetchTree(REGION_LAZY_TREE, { parentCode: codes[level] });
        tree = setChildren(tree, codes.slice(0, level + 1), toOptions(children, level + 1, levels));
      }
      if (!active) return;
      setOptions(tree);
      setPath(codes);
    })().catch(() => undefined);
    return () => {
      active = false;
    };
    // Only a new outside value triggers the walk.
  }, [value]);

  const loadData = (selected: AreaOption[]) => {
    const target = selected[selected.length - 1];
    if (!target || target.children) return;
    fetchTree(REGION_LAZY_TREE, { parentCode: target.value })
      .then((nodes) =>
        setOptions((current) =>
          setChildren(
            current,
            selected.map((o) => o.value),
            toOptions(nodes, target.level + 1, levels),
          ),
        ),
      )
      .catch(() => undefined);
  };

  return (
    <Cascader<AreaOption>
      id={id}
      options={options}
      value={path}
      loadData={loadData}
      changeOnSelect={false}
      disabled={disabled}
      size={size}
      status={invalid ? 'error' : undefined}
      placeholder={placeholder ?? t('area.placeholder')}
      style={{ width: '100%' }}
      onChange={(next, selectedOptions) => {
        const codes = (next ?? []).map(String);
        setPath(codes);
        onChange(
          codes[codes.length - 1],
          (selectedOptions ?? []).map((option) => option.label),
        );
      }}
    />
  );
}
