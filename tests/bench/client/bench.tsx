/**
 * Benchmark page (built only by tests/bench/form-bench.ts). A small form is opened and closed
 * first, as the shell would have warmed antd up; then the page shows a plain button,
 * `[data-bench="open"]`, that opens the 200-field form. The button gets `data-bench-ready` once
 * the page is warm (and, for `?variant=stock`, the stock form's chunk is loaded, so loading it is
 * not timed). `?variant=stock` opens the same fields on the stock @rjsf/antd theme instead.
 *
 * The page sets no globals and times nothing itself: the driver times it from outside, with
 * selectors only (its probe, tests/bench/client/probe.ts, injected before the page's scripts).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd';
import { FeedbackProvider } from '../../../src/client/feedback/FeedbackProvider.tsx';
import zhCN from 'antd/es/locale/zh_CN';
import { FormDialog } from '../../../src/client/renderer/form/FormDialog.tsx';
import { antdThemeOf } from '../../../src/client/app/theme/antdTheme.ts';
import { benchResource, warmUpResource } from './benchResource.ts';

const variant = new URLSearchParams(location.search).get('variant') ?? 'ours';

const StockForm = lazy(() => import('./StockForm.tsx'));
// Loaded before the clock starts, like an already visited page.
const stockReady = variant === 'stock' ? import('./StockForm.tsx') : Promise.resolve();

function Bench() {
  const [phase, setPhase] = useState<'warm' | 'idle' | 'open'>('warm');
  const [ready, setReady] = useState(false);
  const [small] = useState(warmUpResource);
  const [large] = useState(benchResource);
  useEffect(() => {
    if (phase !== 'warm') return;
    const timer = window.setTimeout(() => {
      setPhase('idle');
      void stockReady.then(() => setReady(true));
    }, 600);
    return () => window.clearTimeout(timer);
  }, [phase]);
  if (phase === 'warm')
    return <FormDialog resource={small} mode="add" open onClose={() => undefined} onSaved={() => undefined} />;
  if (phase === 'idle') {
    return (
      <button type="button" data-bench="open" data-bench-ready={ready ? '' : undefined} onClick={() => setPhase('open')}>
        打开表单
      </button>
    );
  }
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
    <FeedbackProvider>
      <Bench />
    </FeedbackProvider>
  </ConfigProvider>,
);
