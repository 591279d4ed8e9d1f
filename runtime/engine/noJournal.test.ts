import { describe, expect, it } from 'vitest';
import { edge, end, fanout, flow, join, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { EngineEnv } from './run.ts';
import { fire, runToStop, startSnapshot, step } from './step.ts';

/**
 * A caller that keeps no journal says so (`EngineEnv.journal: false`): a step then makes no
 * entries for it, but a failed node's `failed`, and does all else alike.
 */

const T0 = Date.UTC(2026, 0, 1);

const f: Flow = flow({
  nodes: [
    start(),
    fanout('split'),
    work('a', { n: '1' }),
    work('b', { m: '2' }),
    join('both', ['a', 'b']),
    wait('sleep', [{ id: 'hour', timer: 'PT1H' }]),
    work('bad', { x: 'n + "text"' }),
    end(),
  ],
  edges: [
    edge('start', 'split'),
    edge('split', 'a'),
    edge('split', 'b'),
    edge('a', 'both'),
    edge('b', 'both'),
    edge('both', 'sleep'),
    edge('sleep', 'bad'),
    edge('bad', 'end'),
  ],
});

const envOf = (extra: Partial<EngineEnv> = {}): EngineEnv => ({
  flows: (id) => (id === f.id ? f : undefined),
  now: T0,
  ...extra,
});

describe('a step for a caller that keeps no journal', () => {
  it('rule: makes no journal entries but `failed`, and the same snapshots, writes and status', async () => {
    const kept = await runToStop(startSnapshot(f), {}, envOf());
    const none = await runToStop(startSnapshot(f), {}, envOf({ journal: false }));
    expect(kept.journal.length).toBeGreaterThan(0);
    expect(none.journal).toEqual([]);
    expect(none.snapshot).toStrictEqual(kept.snapshot);
    expect(none.writes).toStrictEqual(kept.writes);
    expect(none.status).toBe('waiting');

    const wake = { seq: none.snapshot.scope.waits[0]!.seq, trigger: 'hour' };
    const woke = await fire(none.snapshot, none.context, envOf({ journal: false }), wake);
    expect(woke.journal).toEqual([]);
    const failed = await step(woke.snapshot, none.context, envOf({ journal: false }));
    expect(failed.status).toBe('failed');
    expect(failed.journal).toEqual([
      { type: 'failed', node: 'bad', message: expect.stringContaining('set "x"') as unknown },
    ]);
  });
});
