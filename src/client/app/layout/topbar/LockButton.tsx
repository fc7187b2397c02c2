import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import { useT } from '../../i18n/index.ts';
import { SuspenseProgress } from '../../ProgressBar.tsx';

// The dialog (and antd's Form with it) loads when the button is pressed, not with every page.
const LockDialog = lazy(() => import('./LockDialog.tsx').then((mod) => ({ default: mod.LockDialog })));

/** The top bar's lock button: opens the lock-password dialog. */
export function LockButton() {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="text"
        icon={<LockOutlined />}
        onClick={() => setOpen(true)}
        aria-label={t('top.lock')}
        title={t('top.lock')}
        data-testid="lock-button"
      />
      {open && (
        <Suspense fallback={<SuspenseProgress />}>
          <LockDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
