import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installGlobalErrorHandlers } from './store/errorLog.ts';
import { App } from './app/App.tsx';
import { prefetchForBoot } from './app/session/bootPrefetch.ts';

installGlobalErrorHandlers();
prefetchForBoot(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
