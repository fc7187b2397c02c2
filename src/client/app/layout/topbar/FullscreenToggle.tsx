import { useEffect, useState } from 'react';
import { Button } from 'antd';
import FullscreenExitOutlined from '@ant-design/icons/es/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/es/icons/FullscreenOutlined';
import { useT } from '../../i18n/index.ts';

export function FullscreenToggle() {
  const t = useT();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));

  useEffect(() => {
    const sync = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);

  const toggle = () => {
    const change = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    // Refused (e.g. not allowed by the browser): the button simply stays as it is.
    change.catch(() => undefined);
  };

  const label = full ? t('top.exitFullscreen') : t('top.fullscreen');
  return (
    <Button
      type="text"
      icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      onClick={toggle}
      aria-label={label}
      title={label}
      data-testid="fullscreen-toggle"
    />
  );
}
