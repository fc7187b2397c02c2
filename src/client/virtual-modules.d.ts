/// <reference types="vite/client" />
declare module 'virtual:menu-icons' {
  import type { ComponentType } from 'react';
  import type { AntdIconProps } from '@ant-design/icons/es/components/AntdIcon';

  type IconComponent = ComponentType<AntdIconProps>;
  /** Icons of the seeded top and root menus, keyed by component name (see vite.config.ts). */
  export const menuIcons: Record<string, IconComponent>;
  /** Icon name → its group (the icons of one root menu's subtree), loaded on first use. */
  export const iconGroupOf: Record<string, number>;
  export const iconGroupLoaders: (() => Promise<{ default: Record<string, IconComponent> }>)[];
}

/** antd's styles of the commonly drawn components, made by the build (vite.config.ts). */
declare module 'virtual:antd-styles.css';
