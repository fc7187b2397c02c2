/**
 * Benchmark page (built only by tests/bench/form-bench.ts). A small form is opened and closed
 * first, as the shell would have warmed antd up; then `window.__openBench()` opens the 200-field
 * form and the page records the time to its first painted frame, and for every key typed the
 * time from the key event to the next frame (requestAnimationFrame) and to after that frame's
 * paint. `?variant=stock` opens the same fields on the stock @rjsf/antd theme instead.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { FormDialog } from '../../../src/client/renderer/form/FormDialog.tsx';
import { antdThemeOf } from '../../../src/client/app/theme/antdTheme.ts';
import { BENCH_FIELD_COUNT, benchResource, warmUpResource } from './benchResource.ts';

interface BenchState {
  variant: string;
  warm: boolean;
  /** Keys count only while the driver types into one field (not the clicks between fields). */
  recording: boolean;
  start?: number;
  firstRender?: number;
  /** Key event → next animation frame (the frame that shows it). */
  latencies: number[];
  /** Key event → after that frame was painted. */
  paintLatencies: number[];
  /** Tab (blur: the field commits to the form) → next frame. */
  commitLatencies: number[];
}

declare global {
  interface Window {
    __bench: BenchState;
    __openBench(): void;
  }
}

const variant = new URLSearchParams(location.search).get('variant') ?? 'ours';
const state: BenchState = { variant, warm: false, recording: false, latencies: [], paintLatencies: [], commitLatencies: [] };
window.__bench = state;

function afterPaint(callback: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = callback;
  channel.port2.postMessage(null);
}

function watchFirstRender(): void {
  const selector = variant === 'stock' ? '.ant-form-item' : '.erp-field';
  const check = () => {
    if (document.querySelectorAll(selector).length < BENCH_FIELD_COUNT || state.firstRender !== undefined) return false;
    requestAnimationFrame(() => afterPaint(() => (state.firstRender = performance.now() - state.start!)));
    return true;
  };
  const watcher = new MutationObserver(() => check() && watcher.disconnect());
  watcher.observe(document.body, { childList: true, subtree: true });
}

document.addEventListener(
  'keydown',
  (event) => {
    if (state.start === undefined) return;
    const began = event.timeStamp;
    const commit = event.key === 'Tab';
    if (!commit && !state.recording) return;
    requestAnimationFrame(() => {
      (commit ? state.commitLatencies : state.latencies).push(performance.now() - began);
      if (!commit) afterPaint(() => state.paintLatencies.push(performance.now() - began));
    });
  },
  true,
);

const StockForm = lazy(() => import('./StockForm.tsx'));
// Loaded before the clock starts, like an already visited page.
const stockReady = variant === 'stock' ? import('./StockForm.tsx') : Promise.resolve();

function Bench() {
  const [phase, setPhase] = useState<'warm' | 'idle' | 'open'>('warm');
  const [small] = useState(warmUpResource);
  const [large] = useState(benchResource);
  useEffect(() => {
    if (phase !== 'warm') return;
    const timer = window.setTimeout(() => {
      setPhase('idle');
      void stockReady.then(() => (state.warm = true));
    }, 600);
    return () => window.clearTimeout(timer);
  }, [phase]);
  useEffect(() => {
    window.__openBench = () => {
      state.start = performance.now();
      watchFirstRender();
      setPhase('open');
    };
  }, []);
  if (phase === 'warm')
    return <FormDialog resource={small} mode="add" open onClose={() => undefined} onSaved={() => undefined} />;
  if (phase === 'idle') return null;
  if (variant === 'stock') {
    return (
      <Suspense fallback={null}>
        <StockForm />
      </Suspense>
    );
  }
  return <FormDialog resource={large} mode="add" open onClose={() => undefined} onSaved={() => undefined} />;
}

createRoot(document.getElementById('root')!).render(
  <ConfigProvider theme={antdThemeOf('default')} locale={zhCN}>
    <AntdApp>
      <Bench />
    </AntdApp>
  </ConfigProvider>,
);
