/**
 * The `Idempotency-Key` of every attempt of one wait (docs/format.md#calls):
 * `wakeflow-<process>-<wait seq>-<node path>-g<generation>`, for example
 * `wakeflow-p1-7-sub~2Fpay-g2.1`. The same for every attempt and every re-send after a restart,
 * since all it names is stored in the snapshot. Process id and node path keep letters, digits and
 * `_`; every other byte of their UTF-8 is written `~XX`, so the key is URL-safe, fits a header,
 * and no two waits share one (`-` between the parts never occurs inside them).
 */
export function idempotencyKey(
  processId: string,
  wait: { seq: number; node: string; gen: readonly number[] },
): string {
  return `wakeflow-${escapePart(processId)}-${wait.seq}-${escapePart(wait.node)}-g${wait.gen.join('.')}`;
}

const KEPT = /[A-Za-z0-9_]/;
const encoder = new TextEncoder();

function escapePart(text: string): string {
  let out = '';
  for (const ch of text) {
    if (KEPT.test(ch)) out += ch;
    else
      for (const byte of encoder.encode(ch))
        out += '~' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}
