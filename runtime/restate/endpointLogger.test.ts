import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import { endpointLogger } from './endpointLogger.ts';

const meta = (level: string, replaying = false) =>
  ({
    level,
    replaying,
    source: 'JOURNAL',
    context: { invocationTarget: 'process/p1/tick', invocationId: 'inv_1' },
  }) as unknown as restate.LogMetadata;

describe("the endpoint's log (endpointLogger.ts)", () => {
  it('rule: writes from the level it was given when the endpoint was made, none while replaying', () => {
    const lines: string[] = [];
    const log = endpointLogger('WARN', (_level, line) => lines.push(line));
    log(meta('info'), 'Starting invocation.');
    log(meta('warn'), 'slow');
    log(meta('error', true), 'replayed');
    log(meta('error'), 'broke');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[restate\]\[[^\]]+\]\[process\/p1\/tick\]\[inv_1\] WARN: slow$/);
    expect(lines[1]).toMatch(/ ERROR: broke$/);
  });

  it('rule: with no level, or one it does not know, it writes from INFO, as the SDK does', () => {
    for (const level of [undefined, 'loud']) {
      const lines: string[] = [];
      const log = endpointLogger(level, (_l, line) => lines.push(line));
      log(meta('debug'), 'quiet');
      log(meta('info'), 'Starting invocation.');
      expect(lines).toHaveLength(1);
    }
  });
});
