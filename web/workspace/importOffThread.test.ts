import { expose, wrap } from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hugeFile } from '../../e2e/fixtures/bad/generate.ts';
import { minimalFlow, text } from '../../shared/fixtures/flows.ts';
import { importApi } from './importApi.ts';
import type { ImportResult } from './importFlows.ts';
import {
  createImporter,
  IMPORT_TIMEOUT_MS,
  inThisThread,
  type ImportCalls,
  type ImportWorker,
} from './importOffThread.ts';

/**
 * A worker as the page holds one, its calls carried by Comlink over a MessageChannel exactly as
 * they are to a Web Worker: arguments and results are structured-cloned, so only plain data
 * crosses.
 */
function channelWorker(): ImportWorker & { ended: boolean } {
  const { port1, port2 } = new MessageChannel();
  expose(importApi, port1);
  const worker = {
    calls: wrap<typeof importApi>(port2) as ImportCalls,
    ended: false,
    terminate() {
      worker.ended = true;
      port1.close();
      port2.close();
    },
    failed: new Promise<never>(() => {}),
  };
  return worker;
}

/** A worker whose every call is answered only when the test says. */
function stuckWorker(): ImportWorker & { ended: boolean } {
  const never = () => new Promise<ImportResult>(() => {});
  const worker = {
    calls: { importText: never, importFile: never },
    ended: false,
    terminate: () => void (worker.ended = true),
    failed: new Promise<never>(() => {}),
  };
  return worker;
}

afterEach(() => void vi.useRealTimers());

describe('import off the page thread: a plain result back, a message within 2 seconds', () => {
  it('imports through Comlink, the File sent and read on the far side', async () => {
    const spawned: ReturnType<typeof channelWorker>[] = [];
    const importer = createImporter({
      spawn: () => (spawned.push(channelWorker()), spawned.at(-1)!),
    });
    const result = await importer.importFile(
      new Blob([text(minimalFlow('orders'))]),
      new Set(['orders']),
    );
    expect(result.ok && result.flows.map((f) => f.id)).toEqual(['orders-2']);
    // One worker serves every import.
    expect((await importer.importText('nope', [])).ok).toBe(false);
    expect(spawned).toHaveLength(1);
    importer.close();
    expect(spawned[0]!.ended).toBe(true);
  });

  it('refuses a 20 MB file across the channel, naming its size', async () => {
    const importer = createImporter({ spawn: channelWorker });
    expect(await importer.importFile(new Blob([hugeFile()]), [])).toEqual({
      ok: false,
      message: expect.stringContaining('the file is 20.0 MB'),
    });
    importer.close();
  });

  it('refuses a file that keeps the worker busy past the timeout, ends that worker and starts anew', async () => {
    vi.useFakeTimers();
    const spawned: ReturnType<typeof stuckWorker>[] = [];
    const importer = createImporter({
      spawn: () => (spawned.push(stuckWorker()), spawned.at(-1)!),
    });
    const pending = importer.importText('{}', []);
    await vi.advanceTimersByTimeAsync(IMPORT_TIMEOUT_MS);
    expect(await pending).toEqual({
      ok: false,
      message:
        'The file was not imported: reading it took more than 1.5 seconds, so it was stopped.',
    });
    expect(spawned.map((w) => w.ended)).toEqual([true]);
    const next = importer.importText('{}', []);
    expect(spawned).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(IMPORT_TIMEOUT_MS);
    await next;
  });

  it('keeps to 2 seconds from the file picked to the message', () => {
    expect(IMPORT_TIMEOUT_MS).toBeLessThan(2000);
  });

  it('a timed-out import ends only its own worker, not a newer one', async () => {
    vi.useFakeTimers();
    const spawned: ReturnType<typeof stuckWorker>[] = [];
    const importer = createImporter({
      spawn: () => (spawned.push(stuckWorker()), spawned.at(-1)!),
      timeoutMs: 1000,
    });
    const a = importer.importText('{}', []);
    await vi.advanceTimersByTimeAsync(500);
    const b = importer.importText('{}', []);
    // a times out and ends the first worker; c starts the second, then b times out.
    await vi.advanceTimersByTimeAsync(600);
    await a;
    const c = importer.importText('{}', []);
    await vi.advanceTimersByTimeAsync(500);
    await b;
    expect(spawned.map((w) => w.ended)).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(1000);
    await c;
  });

  it('refuses the file, naming why, when the worker cannot start; the next import tries again', async () => {
    let spawns = 0;
    const importer = createImporter({
      spawn: () => {
        spawns++;
        const failed = Promise.reject(new Error('its script failed to load'));
        failed.catch(() => undefined);
        return { ...stuckWorker(), failed };
      },
    });
    expect(await importer.importText('{}', [])).toEqual({
      ok: false,
      message: 'The file was not imported: it could not be read (its script failed to load).',
    });
    await importer.importText('{}', []);
    expect(spawns).toBe(2);
  });

  it('runs the same calls on this thread where there is no Worker', async () => {
    const importer = createImporter({ spawn: inThisThread });
    const result = await importer.importText(text(minimalFlow('x')), []);
    expect(result.ok).toBe(true);
  });
});
