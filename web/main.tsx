import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './ui/tokens.css';
import './ui/ui.css';
import './app.css';
import { connectRuntime } from './connectRuntime.ts';
import { restoreSession } from './shell/restoreSession.ts';
import { createWorkbench } from './shell/WorkbenchProvider.tsx';
import { startTheme } from './ui/theme.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Before the first render, so that the page never flashes the other theme.
startTheme();
// The workbench's stores and services, made once here and provided to every view.
const parts = createWorkbench();
// What a dev-server e2e test reads of what the page holds (e2e/processTable.spec.ts); a built
// app has no such hook.
if (import.meta.env.DEV) Object.assign(window, { wakeflowWorkbench: parts });
createRoot(root).render(
  <StrictMode>
    <App parts={parts} />
  </StrictMode>,
);
void connectRuntime(parts).then(() => restoreSession(parts));
