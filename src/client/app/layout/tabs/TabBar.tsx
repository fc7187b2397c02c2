import { useRef, useState, type MouseEvent } from 'react';
import { Dropdown, Tabs, theme, type MenuProps } from 'antd';
import ClearOutlined from '@ant-design/icons/es/icons/ClearOutlined';
import CloseCircleOutlined from '@ant-design/icons/es/icons/CloseCircleOutlined';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import { useSettings } from '../../../store/settings.ts';
import { useTabs } from '../../../store/tabs.ts';
import { useT } from '../../i18n/index.ts';
import { useTabActions, type TabAction } from './useTabActions.ts';
import { tabLabel } from './useTabSync.ts';

/** The key of the tab under a right-click, read from the label's data attribute. */
function tabKeyAt(event: MouseEvent): string | undefined {
  const tab = (event.target as HTMLElement).closest('.ant-tabs-tab');
  return tab?.querySelector('[data-tab-key]')?.getAttribute('data-tab-key') ?? undefined;
}

/**
 * Tab bar: one tab per open page, closable when more than one. One context menu serves the whole
 * bar (per-tab menus would close whenever the bar re-lays out its tabs).
 */
export function TabBar() {
  const t = useT();
  const { token } = theme.useToken();
  const language = useSettings((s) => s.language);
  const tabs = useTabs((s) => s.tabs);
  const activeKey = useTabs((s) => s.activeKey);
  const { activate, close, run } = useTabActions();
  const target = useRef<string | undefined>(undefined);
  const [menuOpen, setMenuOpen] = useState(false);

  const contextItems: MenuProps['items'] = [
    { key: 'clearCache', icon: <ClearOutlined />, label: t('tabs.clearCache') },
    { key: 'closeOthers', icon: <CloseOutlined />, label: t('tabs.closeOthers') },
    { key: 'closeAll', icon: <CloseCircleOutlined />, label: t('tabs.closeAll') },
  ];

  return (
    <Dropdown
      trigger={['contextMenu']}
      open={menuOpen}
      // Only a right-click on a tab opens the menu, not one on the empty part of the bar.
      onOpenChange={(open) => setMenuOpen(open && target.current !== undefined)}
      menu={{
        items: contextItems,
        onClick: ({ key }) => {
          setMenuOpen(false);
          if (target.current) run(key as TabAction, target.current);
        },
      }}
    >
      <div
        data-testid="tab-bar"
        // Capture phase: known before the dropdown's own handler decides to open.
        onContextMenuCapture={(event) => {
          target.current = tabKeyAt(event);
        }}
        style={{
          background: token.colorBgContainer,
          padding: '4px 8px 0',
          flex: 'none',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Tabs
          type="editable-card"
          size="small"
          hideAdd
          activeKey={activeKey}
          onChange={activate}
          onEdit={(key, action) => {
            if (action === 'remove' && typeof key === 'string') close(key);
          }}
          tabBarStyle={{ margin: 0 }}
          items={tabs.map((tab) => ({
            key: tab.key,
            closable: tabs.length > 1,
            label: (
              <span data-testid="tab" data-tab-key={tab.key}>
                {tabLabel(tab, t, language)}
              </span>
            ),
          }))}
        />
      </div>
    </Dropdown>
  );
}
