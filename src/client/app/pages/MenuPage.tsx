import { Suspense, useEffect } from 'react';
import { Flex, Spin } from 'antd';
import { SuspenseProgress } from '../ProgressBar.tsx';
import { resolvePage, type PageMenu } from '../pages.ts';

/** Renders the page that `resolvePage` maps a menu to, loading its chunk lazily. */
export function MenuPage({ menu }: { menu: PageMenu }) {
  const Page = resolvePage(menu);
  // Once per opened page, while its code loads: the schema, the list's code and its first rows.
  // Keyed by path: the menu object is rebuilt whenever the route table is.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    // A small chunk of its own, so the sign-in page does not carry the renderer's helpers.
    void import('../../renderer/list/listPrefetch.ts').then(({ prefetchListPage }) => prefetchListPage(menu), () => undefined);
  }, [menu.path]);
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
