import { createElement, type CSSProperties, type ReactNode } from 'react';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';

function render(node: AbstractNode, key?: number): ReactNode {
  return createElement(node.tag, { key, ...node.attrs }, node.children?.map(render));
}

/**
 * One of antd's icons drawn from its path data alone (`@ant-design/icons-svg`), for the pages that
 * load before antd does (sign-in, the crash notice): the same shapes as `@ant-design/icons`
 * without its runtime (context, style injection), sized like text and coloured by `currentColor`.
 */
export function SvgIcon({ icon, style, className }: { icon: IconDefinition; style?: CSSProperties; className?: string }) {
  const root = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return (
    <svg
      viewBox={root.attrs.viewBox}
      width="1em"
      height="1em"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
      className={className}
      style={{ flex: 'none', ...style }}
    >
      {root.children?.map(render)}
    </svg>
  );
}
