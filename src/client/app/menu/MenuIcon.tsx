import { useEffect, useRef, useState, type ComponentType, type Ref } from 'react';
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import type { AntdIconProps } from '@ant-design/icons/es/components/AntdIcon';
import { iconGroupLoaders, iconGroupOf, menuIcons } from 'virtual:menu-icons';
import { antdIconOf } from '../../../shared/menuIcons.ts';

type IconComponent = ComponentType<AntdIconProps>;

const resolved = new Map<string, IconComponent>(Object.entries(menuIcons));

/** Icons outside the seeded set come from the full icon package, loaded once on demand. */
let fullSet: Promise<Record<string, unknown>> | undefined;

function loadFullSet(): Promise<Record<string, unknown>> {
  fullSet ??= import('@ant-design/icons').then((mod) => mod as unknown as Record<string, unknown>);
  return fullSet;
}

const groupLoads = new Map<number, Promise<void>>();

function loadGroup(index: number): Promise<void> {
  let load = groupLoads.get(index);
  if (!load) {
    load = iconGroupLoaders[index]().then((mod) => {
      for (const [name, icon] of Object.entries(mod.default)) resolved.set(name, icon);
    });
    // A failed chunk load is tried again by the next icon that needs it.
    load.catch(() => groupLoads.delete(index));
    groupLoads.set(index, load);
    if (groupLoads.size === 1) prefetchOtherGroups();
  }
  return load;
}

/** Once the shell is idle, the other menus' icons load too: opening a menu then draws them at once. */
function prefetchOtherGroups(): void {
  const all = () => iconGroupLoaders.forEach((_, index) => void loadGroup(index).catch(() => undefined));
  setTimeout(() => (window.requestIdleCallback ? window.requestIdleCallback(all, { timeout: 5_000 }) : all()), 3_000);
}

/** An icon's space while its group loads: the label beside it does not move when it arrives. */
function IconSpace({ className, style, spaceRef }: AntdIconProps & { spaceRef?: Ref<HTMLSpanElement> }) {
  return (
    <span
      ref={spaceRef}
      role="img"
      aria-hidden
      className={className ? `anticon ${className}` : 'anticon'}
      style={{ width: '1em', height: '1em', ...style }}
    />
  );
}

/**
 * Resolves once the element is drawn: antd's menu renders every item once, hidden, to learn the
 * tree, and an icon's group should load for the items a user can see, not for those copies.
 */
function whenVisible(element: Element, signal: AbortSignal): Promise<void> {
  if (typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(element);
    signal.addEventListener('abort', () => observer.disconnect());
  });
}

function initialIcon(name: string | undefined): IconComponent | undefined {
  if (!name) return AppstoreOutlined;
  return resolved.get(name) ?? (name in iconGroupOf ? undefined : AppstoreOutlined);
}

/** A menu's icon by its `source`: a BladeX icon-font class ("iconfont icon-printer") or an @ant-design/icons name. */
export function MenuIcon({ name: source, ...props }: { name?: string } & AntdIconProps) {
  const name = antdIconOf(source);
  // undefined: the icon's group is still to load (a space of the icon's size is drawn meanwhile).
  const [Icon, setIcon] = useState<IconComponent | undefined>(() => initialIcon(name));
  const space = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (!name) return;
    const known = resolved.get(name);
    if (known) {
      setIcon(() => known);
      return;
    }
    const group = iconGroupOf[name];
    const grouped = group !== undefined;
    if (!grouped && !/^[A-Z][A-Za-z]+(Outlined|Filled|TwoTone)$/.test(name)) return;
    const abort = new AbortController();
    const found = grouped
      ? (space.current ? whenVisible(space.current, abort.signal) : Promise.resolve())
          .then(() => loadGroup(group))
          .then(() => resolved.get(name))
      : loadFullSet().then((icons) => icons[name] as IconComponent | undefined);
    found.then(
      (icon) => {
        if (abort.signal.aborted) return;
        if (icon) resolved.set(name, icon);
        setIcon(() => icon ?? AppstoreOutlined);
      },
      () => !abort.signal.aborted && setIcon(() => AppstoreOutlined),
    );
    return () => abort.abort();
  }, [name]);

  return Icon ? <Icon {...props} /> : <IconSpace {...props} spaceRef={space} />;
}
