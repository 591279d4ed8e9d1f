/** The query parameter that tells a page where to post what it measured (unwatchedPage.ts). */
export const REPORT_PARAM = 'report';

/**
 * Posts what a page measured (or why it could not) to the bench that opened it with
 * `runUnwatched`: a simple request (`no-cors`, text), so the receiver needs no CORS.
 */
export async function reportToBench(search: string, work: () => Promise<unknown>): Promise<void> {
  const to = new URLSearchParams(search).get(REPORT_PARAM);
  if (!to) return;
  let posted: { value: unknown } | { error: string };
  try {
    posted = { value: await work() };
  } catch (e) {
    posted = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  await fetch(to, { method: 'POST', mode: 'no-cors', body: JSON.stringify(posted) });
}
