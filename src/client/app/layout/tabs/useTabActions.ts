import { useCallback } from 'react';

import { useNavigate } from 'react-router';
import { clearServerCache } from '../../../api/auth.ts';
import { clearDictionaryCache } from '../../../store/dicts.ts';
import { useTabs } from '../../../store/tabs.ts';
import { useT } from '../../i18n/index.ts';
import { useFeedback } from '../../../feedback/FeedbackProvider.tsx';

export type TabAction = 'clearCache' | 'closeOthers' | 'closeAll';

/** What the tab bar can do: switch, close, and the context-menu actions. */
export function useTabActions() {
  const t = useT();
  const { modal, message } = useFeedback();
  const navigate = useNavigate();

  const activate = useCallback(
    (key: string) => {
      // Mark it active now, not only after the route effect (closing right after must hit it).
      useTabs.getState().activate(key);
      navigate(key);
    },
    [navigate],
  );

  const close = useCallback(
    (key: string) => {
      const next = useTabs.getState().close(key);
      if (next) navigate(next);
    },
    [navigate],
  );

  const clearCache = useCallback(
    () =>
      modal.confirm({
        title: t('common.tip'),
        content: t('tabs.clearCacheConfirm'),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        // A failed call was already reported; the dialog closes either way (it must not
        // linger over the login page after a lost session).
        onOk: () =>
          clearServerCache().then(
            () => {
              clearDictionaryCache();
              void message.success(t('tabs.cacheCleared'));
            },
            () => undefined,
          ),
      }),
    [modal, message, t],
  );

  const run = useCallback(
    (action: TabAction, tabKey: string) => {
      const store = useTabs.getState();
      if (action === 'clearCache') clearCache();
      else if (action === 'closeOthers') {
        store.closeOthers(tabKey);
        navigate(tabKey);
      } else navigate(store.closeAll());
    },
    [clearCache, navigate],
  );

  return { activate, close, run };
}
