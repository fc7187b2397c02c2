import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { Lazy } from './ProgressBar.tsx';
import { RequireSignedOut } from './guards.tsx';
import { website } from './website.ts';

const LoginPage = lazy(() => import('./pages/login/LoginPage.tsx'));
const AntdFrame = lazy(() => import('./AntdFrame.tsx'));

/** Sign-in on its own (no antd, issue 17); every other route inside the antd frame. */
export function AppRoutes() {
  return (
    <Lazy>
      <Routes>
        <Route
          path={website.loginPath}
          element={
            <RequireSignedOut>
              <LoginPage />
            </RequireSignedOut>
          }
        />
        <Route path="*" element={<AntdFrame />} />
      </Routes>
    </Lazy>
  );
}
