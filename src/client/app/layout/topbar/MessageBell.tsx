import { useCallback, useEffect, useState } from 'react';
import { Badge, Button } from 'antd';
import BellOutlined from '@ant-design/icons/es/icons/BellOutlined';
import { http } from '../../../api/http.ts';
import { leavesOf } from '../../menu/menuTree.ts';
import { useOpenMenu, useVisibleMenus } from '../../menu/useMenus.ts';
import { useT } from '../../i18n/index.ts';
import { RESOURCE_CHANGED } from '../../../api/events.ts';

const POLL_MS = 30_000;
/** Actions on these resources (marking read, finishing a task) recount at once. */
const MESSAGE_RESOURCES = new Set(['message-info', 'msg-synergism', 'user-task']);

/** The unread-message count (消息中心), polled in the background and on focus; opens 消息. */
export function MessageBell() {
  const t = useT();
  const [count, setCount] = useState(0);
  const menus = useVisibleMenus();
  const openMenu = useOpenMenu();
  const target = leavesOf(menus).find((m) => m.code === 'message');

  const refresh = useCallback(() => {
    http
      .get<{ count?: number }>('/api/blade-desk/messageinfo/unreadCount', undefined, { silent: true, background: true })
      .then((answer) => setCount(Number(answer?.count ?? 0)))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, POLL_MS);
    window.addEventListener('focus', refresh);
    const changed = (event: Event) => MESSAGE_RESOURCES.has(String((event as CustomEvent<{ resource?: string }>).detail?.resource)) && refresh();
    window.addEventListener(RESOURCE_CHANGED, changed);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', refresh);
      window.removeEventListener(RESOURCE_CHANGED, changed);
    };
  }, [refresh]);

  if (!target) return null;
  return (
    <Badge count={count} size="small" offset={[-4, 4]} data-testid="message-count">
      <Button type="text" icon={<BellOutlined />} aria-label={t('top.messages')} title={t('top.messages')} onClick={() => openMenu(target)} data-testid="message-bell" />
    </Badge>
  );
}
