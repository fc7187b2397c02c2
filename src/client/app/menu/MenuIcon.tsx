import { useEffect, useState, type ComponentType } from 'react';
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import type { AntdIconProps } from '@ant-design/icons/es/components/AntdIcon';
import { menuIcons } from 'virtual:menu-icons';
import { antdIconOf } from '../../../shared/menuIcons.ts';

type IconComponent = ComponentType<AntdIconProps>;

/** Icons outside the seeded set come from the full icon package, loaded once on demand. */
let fullSet: Promise<Record<string, unknown>> | undefined;

function loadFullSet(): Promise<Record<string, unknown>> {
  fullSet ??= import('@ant-design/icons').then((mod) => mod as unknown as Record<string, unknown>);
  return fullSet;
}

const resolved = new Map<string, IconComponent>(Object.entries(menuIcons));

/** A menu's icon by its `source`: a BladeX icon-font class ("iconfont icon-printer") or an @ant-design/icons name. */
export function MenuIcon({ name: source, ...props }: { name?: string } & AntdIconProps) {
  const name = antdIconOf(source);
  const [Icon, setIcon] = useState<IconComponent>(() => (name && resolved.get(name)) || AppstoreOutlined);

  useEffect(() => {
    if (!name) return;
    const known = resolved.get(name);
    if (known) {
      setIcon(() => known);
      return;
    }
    if (!/^[A-Z][A-Za-z]+(Outlined|Filled|TwoTone)$/.test(name)) return;
    let active = true;
    loadFullSet().then(
      (icons) => {
        const found = icons[name];
        if (!active || !found) return;
        resolved.set(name, found as IconComponent);
        setIcon(() => found as IconComponent);
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [name]);

  return <Icon {...props} />;
}
