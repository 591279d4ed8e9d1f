import { expect, type Page, test } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

type Fault = 'quota' | 'abort' | 'none';

/**
 * Makes the runtime's workers' IndexedDB fail the way a full disk or a crashing transaction
 * does: every `put` throws QuotaExceededError, or every read-write transaction aborts. The
 * workers hold the store, so the fault goes in there (Playwright evaluates in each worker).
 */
async function injectFault(page: Page, fault: Fault): Promise<void> {
  const runtimes = page.workers().filter((w) => w.url().includes('runtimeWorker'));
  expect(runtimes.length).toBeGreaterThan(0);
  for (const worker of runtimes) {
    await worker.evaluate((fault: Fault) => {
      const g = globalThis as unknown as {
        __native?: { put: IDBObjectStore['put']; transaction: IDBDatabase['transaction'] };
      };
      const native = (g.__native ??= {
        put: IDBObjectStore.prototype.put,
        transaction: IDBDatabase.prototype.transaction,
      });
      IDBObjectStore.prototype.put = native.put;
      IDBDatabase.prototype.transaction = native.transaction;
      if (fault === 'quota') {
        IDBObjectStore.prototype.put = function () {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        };
      }
      if (fault === 'abort') {
        IDBDatabase.prototype.transaction = function (
          this: IDBDatabase,
          ...args: Parameters<IDBDatabase['transaction']>
        ) {
          const tx = native.transaction.apply(this, args);
          if (args[1] === 'readwrite') queueMicrotask(() => tx.abort());
          return tx;
        } as IDBDatabase['transaction'];
      }
    }, fault);
  }
}

const warning = (page: Page) => page.getByRole('alert').filter({ hasText: 'not being saved' });
const prices = (read: number) => ({ prices: { read, history: [1, 2] } });

/** Opens the app on virtual time with a nightly refresh asleep after its first read. */
async function nightlyAsleep(page: Page): Promise<{ app: InspectorPage; id: string }> {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start('Nightly refresh', { value: prices(0) });
  await expect(app.rowStatus(id)).toHaveText('waiting');
  return { app, id };
}

test('rule: with the disk full mid-run, the run goes on, the warning shows, and the last save stands', async ({
  page,
}) => {
  const { app, id } = await nightlyAsleep(page);
  await app.inspect(id);
  expect(await app.context()).toMatchObject({ prices: { read: 1 } });

  await injectFault(page, 'quota');
  await app.advanceBy('P1D');
  // The wake ran, in memory: the process made its pass and read again.
  await expect(app.rowWakes(id)).toHaveText('1');
  expect(await app.context()).toMatchObject({ prices: { read: 2 } });
  await expect(warning(page)).toContainText('the disk is full (QuotaExceededError)');

  // A reload drops what memory held: the process is as it was last saved, nothing older lost.
  // Real time first: a reload brings back the tab's virtual clock, whose day would fire the
  // wake that was never saved again.
  await app.useRealTime();
  await app.reload();
  await expect(warning(page)).toHaveCount(0);
  await expect(app.rowStatus(id)).toHaveText('waiting');
  await expect(app.rowWakes(id)).toHaveText('0');
  await app.inspect(id);
  expect(await app.context()).toMatchObject({ prices: { read: 1 } });
  await expect(app.journal.filter({ hasText: /started/ })).toHaveCount(1);
});

test('rule: with transactions aborted mid-run, the run goes on, and what was held is saved once writes work again', async ({
  page,
}) => {
  const { app, id } = await nightlyAsleep(page);

  await injectFault(page, 'abort');
  await app.advanceBy('P1D');
  await expect(app.rowWakes(id)).toHaveText('1');
  await expect(warning(page)).toContainText('a write failed (AbortError');

  // The next write saves what was held first; the warning goes, and a reload finds it all.
  await injectFault(page, 'none');
  const other = await app.start('Nightly refresh', { value: prices(10) });
  await expect(warning(page)).toHaveCount(0);
  await app.reload();
  await expect(app.rowWakes(id)).toHaveText('1');
  await expect(app.rowStatus(other)).toHaveText('waiting');
  await app.inspect(id);
  expect(await app.context()).toMatchObject({ prices: { read: 2 } });
});

test('rule: two tabs, one unable to save: no step runs twice (wakes, journal and context checked after its writes are saved)', async ({
  context,
}) => {
  // Both tabs' workers keep their page's time (`?pace=page`), which this clock moves.
  await context.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
  const one = new InspectorPage(await context.newPage());
  await one.goto();
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push(await one.start('Nightly refresh', { value: prices(0) }));
  const two = new InspectorPage(await context.newPage());
  await two.goto();
  for (const id of ids) await expect(two.rowStatus(id)).toHaveText('waiting');

  await injectFault(one.page, 'quota');
  await context.clock.fastForward('24:00:00');
  for (const id of ids) await expect(two.rowWakes(id)).toHaveText('1');

  // Tab one's writes work again: whatever it held is saved with its next write.
  await injectFault(one.page, 'none');
  await one.start('Nightly refresh', { value: prices(5) });
  await expect(warning(one.page)).toHaveCount(0);
  await two.reload();
  for (const id of ids) {
    await expect(two.rowWakes(id)).toHaveText('1');
    await two.inspect(id);
    await expect(two.journal.filter({ hasText: 'woke at sleep by daily' })).toHaveCount(1);
    await expect(two.journal.filter({ hasText: /ran read/ })).toHaveCount(2);
    expect(await two.context()).toMatchObject({ prices: { read: 2 } });
  }
});
