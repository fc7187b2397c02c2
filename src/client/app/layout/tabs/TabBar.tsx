import { App, Dropdown, Tabs, theme, type MenuProps } from 'antd';
import ClearOutlined from '@ant-design/icons/es/icons/ClearOutlined';
import CloseCircleOutlined from '@ant-design/icons/es/icons/CloseCircleOutlined';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import { useNavigate } from 'react-router';
import { clearServerCache } from '../../../api/auth.ts';
import { clearDictionaryCache } from '../../../store/dicts.ts';
import { useSettings } from '../../../store/settings.ts';
import { useTabs, type Tab } from '../../../store/tabs.ts';
import { useT } from '../../i18n/index.ts';
import { tabLabel } from './useTabSync.ts';

/** Tab bar: one tab per open page, closable when more than one, with a context menu. */
export function TabBar() {
  const t = useT();
  const { token } = theme.useToken();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const language = useSettings((s) => s.language);
  const tabs = useTabs((s) => s.tabs);
  const activeKey = useTabs((s) => s.activeKey);
  const closable = tabs.length > 1;

  const clearCache = () =>
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
    });

  const contextItems: MenuProps['items'] = [
    { key: 'clearCache', icon: <ClearOutlined />, label: t('tabs.clearCache') },
    { key: 'closeOthers', icon: <CloseOutlined />, label: t('tabs.closeOthers') },
    { key: 'closeAll', icon: <CloseCircleOutlined />, label: t('tabs.closeAll') },
  ];

  const onContext = (tab: Tab, key: string) => {
    const store = useTabs.getState();
    if (key === 'clearCache') clearCache();
    else if (key === 'closeOthers') {
      store.closeOthers(tab.key);
      navigate(tab.key);
    } else if (key === 'closeAll') navigate(store.closeAll());
  };

  const close = (key: string) => {
    const next = useTabs.getState().close(key);
    if (next) navigate(next);
  };

  return (
    <div data-testid="tab-bar" style={{ background: token.colorBgContainer, padding: '4px 8px 0', flex: 'none',
      borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={activeKey}
        onChange={(key) => navigate(key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key);
        }}
        tabBarStyle={{ margin: 0 }}
        items={tabs.map((tab) => ({
          key: tab.key,
          closable,
          label: (
            <Dropdown trigger={['contextMenu']}
              menu={{ items: contextItems, onClick: ({ key }) => onContext(tab, key) }}>
              <span data-testid="tab" data-tab-key={tab.key}>{tabLabel(tab, t, language)}</span>
            </Dropdown>
          ),
        }))}
      />
    </div>
  );
}
