import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { startTestServer } from '../../runtime/calls/fixtures/testServer.ts';
import { ratio, stats, type Stats } from '../harness.ts';
import type { CallsRounds } from './callsPage.ts';
import { buildPage, serve, tempDir } from './serve.ts';
import { runUnwatched } from './unwatchedPage.ts';

/**
 * The calls section (issue 25, "Speed"), in Chromium on real IndexedDB, against a local server
 * the bench starts (runtime/calls' test server: Node's `http` on 127.0.0.1, a free port, CORS
 * on, so the page, served from another origin, may read its answers):
 *
 * - 1,000 processes asleep at a timer, all woken per round, each wake making one call (its
 *   timer, the attempt sent and answered, the call's fire), beside the same loop without the
 *   call, in alternate rounds of the same run: wakes per second with calls over without.
 * - One process making calls one after another, beside a bare `fetch` loop of the same request
 *   in the same page: the supervisor's time per attempt over the bare loop's per request.
 *
 * Both figures are ratios of two things measured moments apart, so a slow machine slows both.
 * The page runs in a Chromium of its own that no DevTools client watches (unwatchedPage.ts:
 * Playwright's network tracking doubled what a request cost), and the server lets the browser
 * keep a preflight for 10 minutes (PREFLIGHT_MAX_AGE), as servers that expect pages to call
 * them do: both sides of both ratios send the same requests to the same server.
 */

/**
 * Seconds a browser may keep the server's answer to a preflight: the calls carry an
 * Idempotency-Key header, so without it every request would be sent twice (docs/performance.md).
 */
export const PREFLIGHT_MAX_AGE = 600;

export interface CallsResult {
  processes: number;
  /** Wakes per second per round, without and with a call per wake. */
  plainWakesPerSec: Stats;
  callWakesPerSec: Stats;
  /** The median of per-round ratios, with calls over without (goal ≥ 0.5). */
  wakeRatio: number;
  /**
   * Milliseconds per round of the round's requests alone (bare fetches, six in flight), and the
   * ratio a supervisor that cost nothing would reach: a plain round's time over a plain round's
   * and those requests' together, per round.
   */
  bareRoundMs?: Stats;
  floorRatio?: number;
  attempts: number;
  /** Milliseconds per attempt per round: the supervisor's and the bare fetch loop's. */
  supervisorMs: Stats;
  fetchMs: Stats;
  /** The median of per-round ratios, supervisor over bare loop (goal ≤ 1.5). */
  attemptRatio: number;
  /** Requests the server saw (preflights not counted): that the calls did reach it. */
  requests: number;
  /** The machine's 1-minute load average while the section ran. */
  load: number;
}

const ROOT = fileURLToPath(new URL('.', import.meta.url));

export async function callsBench(
  log: (line: string) => void,
  processes = 1000,
  attempts = 200,
  rounds = 4,
): Promise<CallsResult> {
  const out = tempDir('calls');
  const server = await startTestServer({ cors: true, preflightMaxAge: PREFLIGHT_MAX_AGE });
  try {
    log('chromium: building the runtime page …');
    await buildPage({ root: ROOT, outDir: out.dir, configFile: false });
    const page$ = await serve(out.dir);
    try {
      const url = new URL(page$.url);
      for (const [k, v] of Object.entries({ processes, attempts, rounds, origin: server.origin }))
        url.searchParams.set(k, String(v));
      url.searchParams.set('calls', '');
      log(
        `chromium (unwatched): waking ${processes} processes, with and without a call, ${rounds} rounds; ` +
          `then ${attempts} attempts in a row beside a bare fetch loop …`,
      );
      const { wakes, attempts: timed } = await runUnwatched<CallsRounds>(url.href, 30 * 60_000);
      const perSec = (ms: number[]) => ms.map((x) => (processes * 1000) / x);
      const plain = perSec(wakes.plainMs);
      const called = perSec(wakes.callMs);
      return {
        processes,
        plainWakesPerSec: stats(plain),
        callWakesPerSec: stats(called),
        wakeRatio: ratio(called, plain),
        bareRoundMs: stats(wakes.fetchMs),
        floorRatio: ratio(
          wakes.plainMs,
          wakes.plainMs.map((p, i) => p + wakes.fetchMs[i]!),
        ),
        attempts,
        supervisorMs: stats(timed.supervisorMs),
        fetchMs: stats(timed.fetchMs),
        attemptRatio: ratio(timed.supervisorMs, timed.fetchMs),
        requests: server.requests.length,
        load: loadavg()[0]!,
      };
    } finally {
      await page$.close();
    }
  } finally {
    await server.close();
    out.cleanup();
  }
}
