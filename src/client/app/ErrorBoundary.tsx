import { Component, type ErrorInfo, type ReactNode } from 'react';
import { FailureNotice } from './Notice.tsx';
import { recordError } from '../store/errorLog.ts';
import { useT } from './i18n/index.ts';

function CrashNotice() {
  const t = useT();
  return (
    <FailureNotice
      title={t('error.viewCrashed')}
      hint={t('error.viewCrashedHint')}
      extra={
        <button type="button" className="plain-btn plain-btn-primary" onClick={() => window.location.reload()}>
          {t('error.reload')}
        </button>
      }
    />
  );
}

interface Props {
  children: ReactNode;
  /** Changing it clears a shown error (e.g. the route path, so another tab can render). */
  resetKey?: string;
}

interface State {
  failedKey: string | undefined;
  failed: boolean;
}

/** Records a view error for upload and shows a notice instead of a white page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, failedKey: undefined };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (state.failed && state.failedKey !== undefined && props.resetKey !== state.failedKey) {
      return { failed: false, failedKey: undefined };
    }
    return null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    const withComponents = new Error(error.message);
    withComponents.stack = `${error.stack ?? ''}\n${info.componentStack ?? ''}`;
    recordError('react', withComponents);
    this.setState({ failedKey: this.props.resetKey });
  }

  override render(): ReactNode {
    return this.state.failed ? <CrashNotice /> : this.props.children;
  }
}
