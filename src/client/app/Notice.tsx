import type { ReactNode } from 'react';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import { SvgIcon } from './plain/SvgIcon.tsx';
import './plain/plain.css';

/**
 * A failure told in place of a view (a crash, a schema that did not load): the error icon, a
 * title, a hint and an action. Plain elements on purpose: the shell carries it (also around the
 * sign-in page, before antd loads), and it must show even when further code cannot load.
 */
export function FailureNotice({ title, hint, extra }: { title: ReactNode; hint?: ReactNode; extra?: ReactNode }) {
  return (
    <div role="alert" className="plain-notice">
      <SvgIcon icon={CloseCircleFilled} style={{ fontSize: 72, color: 'var(--plain-error)' }} />
      <h3>{title}</h3>
      {hint && <p>{hint}</p>}
      {extra && <div style={{ marginTop: 12 }}>{extra}</div>}
    </div>
  );
}
