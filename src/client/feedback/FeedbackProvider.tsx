/**
 * In place of antd's <App> (see feedbackHub.ts): the toast and dialog APIs for every page after
 * sign-in, and the frame's base text style that <App> gave (colour, size, line height, font).
 */
import { createContext, lazy, Suspense, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { theme } from 'antd';
import { bindNotifier } from '../api/notify.ts';
import { createFeedbackHub, type Feedback } from './feedbackHub.ts';

export type { Feedback };

const FeedbackHolders = lazy(() => import('./FeedbackHolders.tsx'));
const FeedbackContext = createContext<Feedback | undefined>(undefined);

/**
 * When the holders load: at the first press of a key or a pointer (an action that may want a toast
 * or a dialog is coming), or in idle time some seconds after the frame started (the first page has
 * drawn by then). A toast or dialog asked for before either loads them at once.
 */
const LOAD_AFTER_MS = 3_000;
const IDLE_TIMEOUT_MS = 2_000;

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  const hub = useMemo(() => createFeedbackHub(() => setWanted(true)), []);
  const { token } = theme.useToken();

  useEffect(() => {
    bindNotifier(hub.feedback.message);
    return () => bindNotifier(undefined);
  }, [hub]);
  useEffect(() => {
    if (wanted) return;
    const want = () => setWanted(true);
    const stop = new AbortController();
    for (const event of ['pointerdown', 'keydown'] as const) window.addEventListener(event, want, { capture: true, once: true, signal: stop.signal });
    let idle: number | undefined;
    const timer = setTimeout(() => {
      if (window.requestIdleCallback) idle = window.requestIdleCallback(want, { timeout: IDLE_TIMEOUT_MS });
      else want();
    }, LOAD_AFTER_MS);
    return () => {
      stop.abort();
      clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, [wanted]);

  return (
    <FeedbackContext.Provider value={hub.feedback}>
      <div
        className="erp-app"
        style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}
      >
        {wanted && (
          <Suspense fallback={null}>
            <FeedbackHolders hub={hub} />
          </Suspense>
        )}
        {children}
      </div>
    </FeedbackContext.Provider>
  );
}

/** The toast (`message`) and dialog (`modal`) APIs, as antd's App.useApp() gives them. */
export function useFeedback(): Feedback {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback() outside <FeedbackProvider>');
  return feedback;
}
