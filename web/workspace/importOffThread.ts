import { wrap } from 'comlink';
import { failureOf } from '../runtime/workerFailure.ts';
import type { importApi } from './importApi.ts';
import type { ImportResult } from './importFlows.ts';

/**
 * How long reading one file may take before its worker is ended and the file refused: the
 * message must be on the page within 2 seconds of picking the file, whatever the file holds.
 */
export const IMPORT_TIMEOUT_MS = 1500;

/** The calls an import worker answers, each a plain result (structured-cloned back). */
export interface ImportCalls {
  importText(text: string, existing: string[]): Promise<ImportResult>;
  importFile(file: Blob, existing: string[]): Promise<ImportResult>;
}

/** One import worker as the page holds it. */
export interface ImportWorker {
  calls: ImportCalls;
  terminate(): void;
  /** Rejects if the worker cannot start or fails as a whole; never resolves. */
  failed: Promise<never>;
}

/** The import worker: a module worker loaded from the app's own origin, never a blob: URL. */
export function spawnImportWorker(): ImportWorker {
  const worker = new Worker(new URL('./importWorker.ts', import.meta.url), {
    type: 'module',
    name: 'wakeflow-import',
  });
  return {
    calls: wrap<typeof importApi>(worker),
    terminate: () => worker.terminate(),
    failed: failureOf(worker, 'the import worker'),
  };
}

/** The same calls on this thread, where there is no Worker (as in Node). */
export function inThisThread(): ImportWorker {
  // Loaded on first use: the page has workers, and the checks are not part of its first screen.
  const api = import('./importApi.ts').then((m) => m.importApi);
  const calls: ImportCalls = {
    importText: async (text, existing) => (await api).importText(text, existing),
    importFile: async (file, existing) => (await api).importFile(file, existing),
  };
  return { calls, terminate: () => undefined, failed: new Promise<never>(() => {}) };
}

/**
 * Imports off the page's thread. One worker serves every import and is started ahead of the
 * first (`warm`); a file that keeps it busy past the timeout is refused and the worker ended, the
 * next import starting a new one. Nothing the worker does can block the page: the page only
 * sends the File (a handle, not its bytes) and receives a plain result.
 */
export function createImporter(options: { spawn: () => ImportWorker; timeoutMs?: number }) {
  const timeoutMs = options.timeoutMs ?? IMPORT_TIMEOUT_MS;
  let current: ImportWorker | undefined;
  const worker = () => (current ??= options.spawn());

  async function run(call: (calls: ImportCalls) => Promise<ImportResult>): Promise<ImportResult> {
    const used = worker();
    const end = () => {
      used.terminate();
      if (current === used) current = undefined;
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const result = await Promise.race([call(used.calls), timedOut, used.failed]);
      if (result !== 'timeout') return result;
      end();
      const seconds = (timeoutMs / 1000).toLocaleString('en');
      return {
        ok: false,
        message: `The file was not imported: reading it took more than ${seconds} seconds, so it was stopped.`,
      };
    } catch (e) {
      end();
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false, message: `The file was not imported: it could not be read (${why}).` };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** Starts the worker now, so that the first import does not wait for it to load. */
    warm(): void {
      worker();
    },
    importFile: (file: Blob, existing: Iterable<string>) =>
      run((calls) => calls.importFile(file, [...existing])),
    importText: (text: string, existing: Iterable<string>) =>
      run((calls) => calls.importText(text, [...existing])),
    /** Ends the worker; a later import starts another. */
    close(): void {
      current?.terminate();
      current = undefined;
    },
  };
}
