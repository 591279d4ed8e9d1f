import { describe, expect, it, vi } from 'vitest';
import { edge, end, flow, start, work } from '../../shared/fixtures/flows.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import { runToStop, startSnapshot } from '../engine/step.ts';

/** Every text jsonata was asked to parse, in order. */
const parses = vi.hoisted(() => [] as string[]);
vi.mock('jsonata', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof import('jsonata') }>()).default;
  const counted = ((text: string, options?: Parameters<typeof real>[1]) => {
    parses.push(text);
    return real(text, options);
  }) as typeof real;
  return { default: counted };
});

describe('an expression is parsed once, for the flow check and the runtime (shared/expressionSyntax.ts, expressionAst)', () => {
  it('rule: validating a flow and running it parses each expression the shortcut answers once', async () => {
    const f = flow({
      id: 'parse-once',
      nodes: [start(), work('w', { a: 'count + 1', b: '$exists(a) ? a * 2 : 0' }), end()],
      edges: [edge('start', 'w'), edge('w', 'end', { when: 'b > 1' })],
    });
    parses.length = 0;
    expect(validateFlow(f)).toEqual([]);
    const done = await runToStop(startSnapshot(f), { count: 1 }, { flows: () => f, now: 0 });
    expect(done.status).toBe('done');
    expect(done.context).toEqual({ count: 1, a: 2, b: 4 });
    const texts = ['count + 1', '$exists(a) ? a * 2 : 0', 'b > 1'];
    for (const t of texts) expect(parses.filter((p) => p === t)).toHaveLength(1);
  });

  it('an expression only jsonata can evaluate is given to jsonata when first evaluated', async () => {
    const f = flow({
      id: 'parse-slow',
      nodes: [start(), work('w', { s: '$uppercase("a")' }), end()],
      edges: [edge('start', 'w'), edge('w', 'end')],
    });
    parses.length = 0;
    const done = await runToStop(startSnapshot(f), {}, { flows: () => f, now: 0 });
    expect(done.context).toEqual({ s: 'A' });
    // Once for its tree, once as the expression jsonata evaluates with the runtime's options.
    expect(parses.filter((p) => p === '$uppercase("a")')).toHaveLength(2);
  });
});
