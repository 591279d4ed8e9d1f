import { afterEach, describe, expect, it, vi } from 'vitest';
import { chain, end, flow, start, work } from '../../shared/fixtures/flows.ts';
import { startFlow } from '../../runtime/engine/fixtures/harness.ts';
import { runToStop, startSnapshot } from '../../runtime/engine/step.ts';
import type { ExtraFunctions } from '../../runtime/expr/evaluate.ts';
import { testFunctions } from './testFunctions.ts';
import { testHooksOf } from './testHooks.ts';

afterEach(() => vi.unstubAllEnvs());

const blocking = flow({
  id: 'blocking',
  nodes: [start(), work('w', { waited: '$block(30)' }), end()],
  edges: chain('start', 'w', 'end'),
});

/** Runs the flow on the engine with `functions` in its environment, as the worker's supervisor does. */
const runWith = (functions: ExtraFunctions | undefined) =>
  runToStop(
    startSnapshot(blocking),
    {},
    {
      flows: (id) => (id === blocking.id ? blocking : undefined),
      now: 0,
      ...(functions ? { functions } : {}),
    },
  );

describe('test hooks: honoured by the dev server only (docs/decisions.md, "Limits are settings")', () => {
  it('reads what the page address asks for, and nothing else', () => {
    expect(testHooksOf('?test=block')).toEqual({ block: true });
    expect(testHooksOf('?flow=x&test=block')).toEqual({ block: true });
    expect(testHooksOf('')).toBeUndefined();
    expect(testHooksOf('?test=other')).toBeUndefined();
  });

  it('in a production build, the address asks for nothing and $block is never bound', async () => {
    vi.stubEnv('DEV', false);
    expect(testHooksOf('?test=block')).toBeUndefined();
    const functions = testFunctions({ block: true });
    expect(functions).toBeUndefined();
    expect((await runWith(functions)).status).toBe('failed');
  });

  it('binds $block(ms) through the engine environment: one call that returns after ms of real time', async () => {
    // A clock that moves 1 ms each time it is read: the call returns once it has read 30 ms on.
    let time = 1_000;
    const ran = await runWith(testFunctions({ block: true }, () => time++));
    expect(ran.context).toEqual({ waited: 30 });
    expect(time).toBeGreaterThanOrEqual(1_030);
  });

  it('binds nothing for the module: an engine without the functions in its environment lacks $block', async () => {
    let time = 0;
    expect((await runWith(testFunctions({ block: true }, () => time++))).status).toBe('done');
    // The same flow started with no functions (the harness gives none) fails at the call.
    expect((await startFlow([blocking])).status).toBe('failed');
  });
});
