import { expose } from 'comlink';
import { importApi } from './importApi.ts';

// The import worker: a module worker of its own, loaded from the app's origin (no blob: URL and
// no eval, as the Content-Security-Policy requires). See importOffThread.ts for the page's side.
expose(importApi);
