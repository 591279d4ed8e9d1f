// Apart from the guardrails, so that the page can word a limit without loading the RE2 engine.

/** "1 second", "0.05 seconds": a limit in milliseconds as a designer reads it. */
export function inSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds.toLocaleString('en')} second${seconds === 1 ? '' : 's'}`;
}
