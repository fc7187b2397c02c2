import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { progress, useProgress } from '../store/progress.ts';
import { useSettings } from '../store/settings.ts';
import { palettes } from './theme/palette.ts';

/**
 * A thin bar at the top of the window while calls or page chunks load (NProgress-like):
 * it creeps towards 90 % while work is pending and completes when the count drops to 0.
 */
export function ProgressBar() {
  const pending = useProgress((s) => s.pending);
  const primary = palettes[useSettings((s) => s.theme)].primary;
  const [width, setWidth] = useState(0);
  const [visible, setVisible] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    window.clearInterval(timer.current);
    if (pending > 0) {
      setVisible(true);
      setWidth((w) => (w > 0 && w < 90 ? w : 8));
      timer.current = window.setInterval(() => setWidth((w) => Math.min(90, w + (90 - w) * 0.12)), 200);
      return () => window.clearInterval(timer.current);
    }
    setWidth((w) => (w > 0 ? 100 : 0));
    const hide = window.setTimeout(() => {
      setVisible(false);
      setWidth(0);
    }, 300);
    return () => window.clearTimeout(hide);
  }, [pending]);

  return (
    <div
      data-testid="progress-bar"
      aria-hidden
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        height: 2,
        width: `${width}%`,
        opacity: visible ? 1 : 0,
        background: primary,
        boxShadow: `0 0 6px ${primary}`,
        transition: 'width 200ms ease, opacity 300ms ease',
        zIndex: 2000,
        pointerEvents: 'none',
      }}
    />
  );
}

/** A short pulse of the bar on every route change. */
export function RouteProgress() {
  const location = useLocation();
  useEffect(() => {
    progress.start();
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      progress.done();
    };
    const timer = window.setTimeout(finish, 150);
    return () => {
      window.clearTimeout(timer);
      finish();
    };
  }, [location.pathname]);
  return null;
}

/** Suspense fallback that keeps the bar running while a lazy page chunk loads. */
export function SuspenseProgress() {
  useEffect(() => {
    progress.start();
    return progress.done;
  }, []);
  return null;
}

/** Suspense boundary for lazily loaded routes and pages, with the bar running meanwhile. */
export function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<SuspenseProgress />}>{children}</Suspense>;
}
