import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Lazy } from './ProgressBar.tsx';
import { RequireAuth } from './session/RequireAuth.tsx';
import { MenuPage } from './pages/MenuPage.tsx';
import { UnknownRoute } from './pages/UnknownRoute.tsx';
import { useRouteIndex } from './menu/useMenus.ts';
import { infoRoute, leaveRoutes } from './menu/routeIndex.ts';
import { en } from './i18n/en.ts';
import { zh } from './i18n/zh.ts';
import { website } from './website.ts';

const LockPage = lazy(() => import('./pages/LockPage.tsx'));
const ErrorPage = lazy(() => import('./pages/ErrorPage.tsx'));
const MainLayout = lazy(() => import('./layout/MainLayout.tsx'));
const HomePage = lazy(() => import('./pages/HomePage.tsx'));
const InfoPage = lazy(() => import('./pages/info/InfoPage.tsx'));
const IframePage = lazy(() => import('./pages/IframePage.tsx'));

/** Every route but sign-in (see AppRoutes): the signed-in layout with the menus' pages, lock and errors. */
export function FrameRoutes() {
  const index = useRouteIndex();
  const menuRoutes = [...index.pages.entries()];

  return (
    <Lazy>
      <Routes>
        <Route path={website.lockPath} element={<LockPage />} />
        <Route path="/404" element={<ErrorPage status={404} />} />
        <Route path="/403" element={<ErrorPage status={403} />} />
        <Route path="/500" element={<ErrorPage status={500} />} />
        <Route
          element={
            <RequireAuth>
              <MainLayout />
            </RequireAuth>
          }
        >
          <Route index element={<Navigate to="/wel" replace />} />
          <Route path="/wel" element={<Navigate to={website.homePath} replace />} />
          <Route
            path={website.homePath}
            element={
              <Lazy>
                <HomePage />
              </Lazy>
            }
          />
          <Route
            path={infoRoute.path}
            element={
              <Lazy>
                <InfoPage />
              </Lazy>
            }
          />
          <Route
            path="/myiframe/:routerPath"
            element={
              <Lazy>
                <IframePage />
              </Lazy>
            }
          />
          {leaveRoutes.map(({ path, code, i18nKey }) => (
            <Route
              key={path}
              path={path}
              element={<MenuPage menu={{ id: code, code, path, name: zh[i18nKey], nameEn: en[i18nKey] }} />}
            />
          ))}
          {menuRoutes.map(([path, menu]) => (
            <Route key={path} path={path} element={<MenuPage menu={menu} />} />
          ))}
          <Route path="*" element={<UnknownRoute />} />
        </Route>
      </Routes>
    </Lazy>
  );
}
