import { lazy, Suspense, useMemo } from 'react';
import { Flex, Spin } from 'antd';
import { FailureNotice } from '../../app/Notice.tsx';
import type { PageProps } from '../../app/pages.ts';
import { useRT } from '../common/i18n.ts';
import { useResource } from '../common/useResource.ts';
import { menuViewOf, pageKindOf } from '../common/views.ts';
import { pageTargetOf } from './pageTarget.ts';
import { variantPage } from '../document/variants.ts';

// Each layout loads only when a page of that kind opens.
const ListPage = lazy(() => import('../list/ListPage.tsx'));
// Only menus whose page is not built show the placeholder (with antd's Result and Descriptions).
const PagePlaceholder = lazy(() => import('../../app/pages/PagePlaceholder.tsx'));
const TreePage = lazy(() => import('./TreePage.tsx'));
const DictionaryPage = lazy(() => import('./DictionaryPage.tsx'));
const CardPage = lazy(() => import('./CardPage.tsx'));
const DocumentPage = lazy(() => import('../document/DocumentPage.tsx'));

function Loading() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: 240 }}>
      <Spin />
    </Flex>
  );
}

/** The page of a menu whose resource has a schema: list, tree, dictionary or card layout. */
export default function SchemaPage({ menu }: PageProps) {
  const t = useRT();
  const target = pageTargetOf(menu);
  const { resource, error, loading } = useResource(target.resource);
  // One kind of a bill with variants (费用单 of 收支单): the menu's bill type picks it.
  const variant = useMemo(() => (resource ? variantPage(resource, target.billType) : undefined), [resource, target.billType]);
  // Another menu listing the resource through its own call (待签事务 over the tasks).
  const menuView = useMemo(() => (resource ? menuViewOf(resource, menu.path) : undefined), [resource, menu.path]);
  if (!target.resource) {
    return (
      <Suspense fallback={<Loading />}>
        <PagePlaceholder menu={menu} />
      </Suspense>
    );
  }
  if (loading) return <Loading />;
  if (error || !resource) return <FailureNotice title={t('page.loadFailed')} hint={menu.path} />;

  // A bill's menu opens the bill form; its history route lists the bills.
  // A bill's menu with a list view of its own (商城订单 over the sales orders) lists them instead.
  const kind = target.layout ? 'dictionary' : resource.document && !menu.historyOf && !menuView ? 'document' : pageKindOf(resource);
  return (
    <Suspense fallback={<Loading />}>
      {kind === 'tree' && <TreePage resource={resource} />}
      {kind === 'dictionary' && <DictionaryPage resource={resource} layout={target.layout ?? 'horizontal'} />}
      {kind === 'card' && <CardPage resource={resource} />}
      {kind === 'list' && menuView && <ListPage resource={menuView} stateKey={`view-${menu.path}`} />}
      {kind === 'list' && !menuView && <ListPage resource={variant?.resource ?? resource} fixedParams={variant?.fixedParams} stateKey={variant ? `list-${target.billType}` : undefined} />}
      {kind === 'document' && <DocumentPage resource={variant?.resource ?? resource} />}
    </Suspense>
  );
}
