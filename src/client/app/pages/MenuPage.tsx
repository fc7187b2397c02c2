import { Suspense } from 'react';
import { Flex, Spin } from 'antd';
import { SuspenseProgress } from '../ProgressBar.tsx';
import { resolvePage, type PageMenu } from '../pages.ts';

/** Renders the page that `resolvePage` maps a menu to, loading its chunk lazily. */
export function MenuPage({ menu }: { menu: PageMenu }) {
  const Page = resolvePage(menu);
  return (
    <Suspense
      fallback={
        <Flex align="center" justify="center" style={{ minHeight: 240 }}>
          <SuspenseProgress />
          <Spin />
        </Flex>
      }
    >
      <Page menu={menu} />
    </Suspense>
  );
}
