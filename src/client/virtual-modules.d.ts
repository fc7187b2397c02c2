declare module 'virtual:menu-icons' {
  import type { ComponentType } from 'react';
  import type { AntdIconProps } from '@ant-design/icons/es/components/AntdIcon';

  /** Icons named by the seeded menu tree, keyed by component name (see vite.config.ts). */
  export const menuIcons: Record<string, ComponentType<AntdIconProps>>;
}
