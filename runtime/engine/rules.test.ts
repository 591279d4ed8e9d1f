import { describe, expect, it } from 'vitest';
import { setExpressionTimeout } from '../expr/guardrails.ts';
import {
  chain,
  edge,
  end,
  fanout,
  flow,
  join,
  start,
  subflow,
  wait,
  work,
} from '../../shared/fixtures/flows.ts';
import {
  fireAt,
  ranNodes,
  ranWithGen,
  skippedNodes,
  startFlow,
  waitPaths,
} from './fixtures/harness.ts';

describe('docs/format.md#running-a-node', () => {
  it('work: runs set expressions in the order written, each seeing the writes before it', async () => {
    const f = flow({
      nodes: [start(), work('w', { a: '1', b: 'a + 1', c: 'b * 10' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const d = await startFlow([f]);
    expect(d.context).toEqual({ a: 1, b: 2, c: 20 });
  });

  it("work: the node's writes reach the context together, as one write of the node", async () => {
    const f = flow({
      nodes: [start(), work('w', { a: '1', b: '2' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const d = await startFlow([f]);
    const written = d.journal.filter((e) => e.type === 'context-written');
    expect(written).toEqual([
      {
        type: 'context-written',
        node: 'w',
        writes: [
          { path: 'a', value: 1 },
          { path: 'b', value: 2 },
        ],
      },
    ]);
  });

  it('work: a set expression that yields nothing removes that path from the context', async () => {
    const f = flow({
      nodes: [start(), work('w', { 'order.note': 'missing.field' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const d = await startFlow([f], { order: { note: 'old', total: 3 } });
    expect(d.context).toEqual({ order: { total: 3 } });
  });

  it("an edge's condition is read against the context after the node's own writes", async () => {
    const f = flow({
      nodes: [start(), work('w', { ready: 'true' }), work('yes', { took: '"yes"' }), end()],
      edges: [...chain('start', 'w'), edge('w', 'yes', { when: 'ready' }), edge('yes', 'end')],
    });
    const d = await startFlow([f], { ready: false });
    expect(ranNodes(d.journal)).toEqual(['start', 'w', 'yes', 'end']);
  });

  it('conditions follow $boolean: empty string, 0, empty array and empty object are false', async () => {
    const values = { s: '', z: 0, a: [], o: {}, t: 'x', n: 3 };
    const targets = Object.keys(values);
    const f = flow({
      nodes: [start(), ...targets.map((k) => work(k, { [`hit.${k}`]: 'true' }))],
      edges: targets.map((k) => edge('start', k, { when: k })),
    });
    const d = await startFlow([f], values);
    expect((d.context as { hit: object }).hit).toEqual({ t: true, n: true });
  });

  it('fan-out: every edge taken from one node runs, in the order the flow lists them', async () => {
    const f = flow({
      nodes: [start(), fanout('split'), work('c', {}), work('a', {}), work('b', {})],
      edges: [edge('start', 'split'), edge('split', 'c'), edge('split', 'a'), edge('split', 'b')],
    });
    const d = await startFlow([f]);
    expect(ranNodes(d.journal)).toEqual(['start', 'split', 'c', 'a', 'b']);
  });

  it('ready nodes run in the order in which they became ready, across branches', async () => {
    // split readies a1 then b1; a1 readies a2 (after b1); b1 readies b2 (after a2).
    const f = flow({
      nodes: [start(), fanout('split'), work('a1'), work('a2'), work('b1'), work('b2')],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a1'),
        edge('split', 'b1'),
        ...chain('a1', 'a2'),
        ...chain('b1', 'b2'),
      ],
    });
    const d = await startFlow([f]);
    expect(ranNodes(d.journal)).toEqual(['start', 'split', 'a1', 'b1', 'a2', 'b2']);
  });

  it('a join that a completion settles becomes ready before the targets of its edges', async () => {
    // When b completes, the join j is settled (a ran earlier); j must run before b's own target.
    const f = flow({
      nodes: [
        start(),
        fanout('split'),
        work('a'),
        work('b'),
        join('j', ['a', 'b']),
        work('after-b'),
      ],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a'),
        edge('split', 'b'),
        edge('a', 'j'),
        edge('b', 'j'),
        edge('b', 'after-b'),
      ],
    });
    const d = await startFlow([f]);
    expect(ranNodes(d.journal)).toEqual(['start', 'split', 'a', 'b', 'j', 'after-b']);
  });

  it('a node without depends runs each time an edge reaches it (a simple merge)', async () => {
    const f = flow({
      nodes: [
        start(),
        fanout('split'),
        work('a'),
        work('b'),
        work('m', { n: '$exists(n) ? n + 1 : 1' }),
      ],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a'),
        edge('split', 'b'),
        edge('a', 'm'),
        edge('b', 'm'),
      ],
    });
    const d = await startFlow([f]);
    expect(d.context).toEqual({ n: 2 });
  });

  it('a branch ends at a node with no edge taken, and the process is done when nothing is left', async () => {
    const f = flow({
      nodes: [start(), work('w')],
      edges: [edge('start', 'w'), edge('w', 'start', { when: 'false' })],
    });
    const d = await startFlow([f]);
    expect(d.status).toBe('done');
    expect(d.journal.at(-1)).toEqual({ type: 'done' });
  });
});

describe('docs/format.md#joins (depends)', () => {
  const diamond = (when?: string) =>
    flow({
      nodes: [
        start(),
        fanout('split'),
        work('a', { a: 'true' }),
        work('b', { b: 'true' }),
        join('j', ['a', 'b']),
        work('after', { after: 'true' }),
      ],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a'),
        edge('split', 'b', when ? { when } : {}),
        edge('a', 'j'),
        edge('b', 'j'),
        edge('j', 'after'),
      ],
    });

  it('runs once, after every named node, when all branches were taken', async () => {
    const d = await startFlow([diamond()]);
    expect(ranNodes(d.journal).filter((n) => n === 'j')).toHaveLength(1);
    expect(ranNodes(d.journal).indexOf('j')).toBeGreaterThan(ranNodes(d.journal).indexOf('b'));
  });

  it('does not wait for a branch that was not taken', async () => {
    const d = await startFlow([diamond('false')]);
    expect(d.status).toBe('done');
    expect(ranNodes(d.journal)).toEqual(['start', 'split', 'a', 'j', 'after']);
  });

  it('is skipped, and its edges not taken, when none of its named nodes ran', async () => {
    const f = flow({
      nodes: [start(), fanout('split'), work('a'), work('other'), join('j', ['a']), work('after')],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a', { when: 'false' }),
        edge('split', 'other'),
        edge('other', 'j'),
        edge('a', 'j'),
        edge('j', 'after'),
      ],
    });
    const d = await startFlow([f]);
    expect(skippedNodes(d.journal)).toEqual(['j']);
    expect(ranNodes(d.journal)).not.toContain('after');
    expect(d.status).toBe('done');
  });

  it('waits while a named node sleeps at a continue-after upstream of it', async () => {
    const f = flow({
      nodes: [start(), fanout('split'), work('a'), wait('sleep'), work('b'), join('j', ['a', 'b'])],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a'),
        edge('split', 'sleep'),
        ...chain('sleep', 'b'),
        edge('a', 'j'),
        edge('b', 'j'),
      ],
    });
    let d = await startFlow([f]);
    expect(d.status).toBe('waiting');
    expect(ranNodes(d.journal)).not.toContain('j');
    d = await fireAt(d, 'sleep', 't');
    expect(ranNodes(d.journal).slice(-2)).toEqual(['b', 'j']);
  });

  it('a join after a loop does not run before the loop it names has left', async () => {
    // The loop head h runs while n < 3; j names h and must run once, after the last pass.
    const f = flow({
      nodes: [start(), work('h', { n: 'n + 1' }), wait('w'), join('j', ['h']), work('after')],
      edges: [
        edge('start', 'h'),
        edge('h', 'w'),
        edge('w', 'h', { when: 'n < 3' }),
        edge('w', 'j', { when: 'n >= 3' }),
        edge('j', 'after'),
      ],
    });
    let d = await startFlow([f], { n: 0 });
    d = await fireAt(d, 'w', 't');
    d = await fireAt(d, 'w', 't');
    expect(ranNodes(d.journal)).not.toContain('j');
    d = await fireAt(d, 'w', 't');
    expect(ranNodes(d.journal).filter((n) => n === 'j')).toHaveLength(1);
    expect(d.status).toBe('done');
  });

  it('counts only arrivals of its own generation inside a loop, never one left from an earlier pass', async () => {
    // Each pass fans out to a and b; b only runs on odd passes. The join runs every pass, once,
    // never satisfied early by the b of an earlier pass.
    const f = flow({
      nodes: [
        start(),
        work('h', { n: 'n + 1' }),
        fanout('split'),
        work('a'),
        work('b'),
        join('j', ['a', 'b']),
        wait('w'),
        end(),
      ],
      edges: [
        ...chain('start', 'h', 'split'),
        edge('split', 'a'),
        edge('split', 'b', { when: 'n % 2 = 1' }),
        edge('a', 'j'),
        edge('b', 'j'),
        edge('j', 'w'),
        edge('w', 'h', { when: 'n < 4' }),
        edge('w', 'end', { when: 'n >= 4' }),
      ],
    });
    let d = await startFlow([f], { n: 0 });
    for (let i = 0; i < 4; i++) d = await fireAt(d, 'w', 't');
    expect(ranWithGen(d.journal).filter((n) => n.startsWith('j@'))).toEqual([
      'j@0',
      'j@1',
      'j@2',
      'j@3',
    ]);
    expect(d.status).toBe('done');
  });

  it('a named node that ran once before a loop counts for every pass of a join inside it', async () => {
    const f = flow({
      nodes: [start(), work('before'), work('h', { n: 'n + 1' }), join('j', ['before']), wait('w')],
      edges: [...chain('start', 'before', 'h', 'j', 'w'), edge('w', 'h', { when: 'n < 3' })],
    });
    let d = await startFlow([f], { n: 0 });
    d = await fireAt(d, 'w', 't');
    d = await fireAt(d, 'w', 't');
    expect(ranWithGen(d.journal).filter((n) => n.startsWith('j@'))).toEqual(['j@0', 'j@1', 'j@2']);
  });

  it('two branches that each went round a loop of their own still meet at a join after them', async () => {
    const f = flow({
      nodes: [
        start(),
        fanout('split'),
        work('a', { a: 'a + 1' }),
        wait('wa'),
        work('b', { b: 'b + 1' }),
        wait('wb'),
        join('j', ['wa', 'wb']),
        end(),
      ],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a'),
        edge('split', 'b'),
        edge('a', 'wa'),
        edge('wa', 'a', { when: 'a < 3' }),
        edge('wa', 'j', { when: 'a >= 3' }),
        edge('b', 'wb'),
        edge('wb', 'b', { when: 'b < 2' }),
        edge('wb', 'j', { when: 'b >= 2' }),
        edge('j', 'end'),
      ],
    });
    // a and b each ran once (a = b = 1) and sleep at wa and wb.
    let d = await startFlow([f], { a: 0, b: 0 });
    d = await fireAt(d, 'wa', 't'); // a < 3: round again, a = 2
    d = await fireAt(d, 'wb', 't'); // b < 2: round again, b = 2
    d = await fireAt(d, 'wb', 't'); // b >= 2: b's branch leaves its loop and reaches j
    // wa still sleeps and can reach itself round its own loop, whose head does not dominate j.
    expect(ranNodes(d.journal)).not.toContain('j');
    d = await fireAt(d, 'wa', 't'); // a = 3
    d = await fireAt(d, 'wa', 't'); // a >= 3: a's branch leaves too
    expect(ranNodes(d.journal).filter((n) => n === 'j')).toHaveLength(1);
    expect(d.status).toBe('done');
    expect(d.snapshot.passes).toEqual({ a: 2, b: 1 });
  });
});

describe('docs/format.md#loops-and-generations', () => {
  const loop = () =>
    flow({
      nodes: [start(), work('read', { n: 'n + 1' }), wait('sleep'), end('done')],
      edges: [
        edge('start', 'read'),
        edge('read', 'sleep'),
        edge('sleep', 'read', { when: 'n < 5' }),
        edge('sleep', 'done', { when: 'n >= 5' }),
      ],
    });

  it('a node belongs to the passes of its loop head: its generation counts the passes', async () => {
    let d = await startFlow([loop()], { n: 0 });
    for (let i = 0; i < 4; i++) d = await fireAt(d, 'sleep', 't');
    expect(ranWithGen(d.journal).filter((n) => n.startsWith('read@'))).toEqual([
      'read@0',
      'read@1',
      'read@2',
      'read@3',
      'read@4',
    ]);
    expect(d.snapshot.passes).toEqual({ read: 4 });
  });

  it('the snapshot carries the pass counts forward through JSON, so a resumed loop keeps its generation', async () => {
    let d = await startFlow([loop()], { n: 0 });
    d = await fireAt(d, 'sleep', 't');
    d = { ...d, snapshot: JSON.parse(JSON.stringify(d.snapshot)) };
    d = await fireAt(d, 'sleep', 't');
    // Two closing edges taken: read ran in generations 0, 1 and now 2.
    expect(ranWithGen(d.journal).at(-1)).toBe('read@2');
  });

  it('the snapshot holds no context value', async () => {
    const d = await startFlow([loop()], { n: 0, secret: 'do-not-store-me' });
    expect(JSON.stringify(d.snapshot)).not.toContain('do-not-store-me');
    expect(JSON.stringify(d.snapshot)).not.toContain('"n"');
  });
});

describe('docs/format.md#nodes, continue-after', () => {
  const choice = () =>
    flow({
      nodes: [
        start(),
        wait('w', [
          { id: 'timer', timer: 'PT1H' },
          { id: 'ev', event: 'paid', into: 'payment' },
          {
            id: 'ask',
            human: { prompt: 'OK?', fields: [{ name: 'ok', type: 'boolean' }] },
            into: 'answer',
          },
        ]),
        work('late', { late: 'true' }),
        work('paid', { paid: 'true' }),
        work('any', { any: 'true' }),
      ],
      edges: [
        edge('start', 'w'),
        edge('w', 'late', { trigger: 'timer' }),
        edge('w', 'paid', { trigger: 'ev' }),
        edge('w', 'any'),
      ],
    });

  it('sleeps until one trigger fires; an edge with a trigger is taken only when that trigger fired', async () => {
    let d = await startFlow([choice()]);
    expect(d.status).toBe('waiting');
    d = await fireAt(d, 'w', 'ev', { amount: 5 });
    expect(d.context).toEqual({ payment: { amount: 5 }, paid: true, any: true });
  });

  it('the first trigger to fire wins and the others are dropped', async () => {
    let d = await startFlow([choice()]);
    d = await fireAt(d, 'w', 'timer');
    expect(d.status).toBe('done');
    expect(waitPaths(d)).toEqual([]);
    expect(d.context).toEqual({ late: true, any: true });
  });

  it("writes an event's payload or a human's input at into", async () => {
    let d = await startFlow([choice()]);
    d = await fireAt(d, 'w', 'ask', { ok: true });
    expect(d.context).toEqual({ answer: { ok: true }, any: true });
  });

  it('stamps each wait with the time it began, so its timers count from then', async () => {
    const d = await startFlow([choice()], {}, Date.UTC(2026, 0, 1));
    expect(d.snapshot.scope.waits[0]!.since).toBe(Date.UTC(2026, 0, 1));
  });
});

describe('docs/format.md#nodes, sub-flows', () => {
  const child = flow({
    id: 'child',
    nodes: [
      start(),
      work('step', { depth: '$exists(depth) ? depth + 1 : 1' }),
      wait('approve'),
      end(),
    ],
    edges: chain('start', 'step', 'approve', 'end'),
  });
  const parent = flow({
    id: 'parent',
    nodes: [start(), subflow('sub', 'child'), work('after', { after: 'depth' })],
    edges: chain('start', 'sub', 'after'),
  });

  it('runs nested on the same live context; its waits and visits are named by path', async () => {
    let d = await startFlow([parent, child]);
    expect(waitPaths(d)).toEqual(['sub/approve']);
    expect(d.context).toEqual({ depth: 1 });
    d = await fireAt(d, 'sub/approve', 't');
    expect(d.context).toEqual({ depth: 1, after: 1 });
    expect(d.snapshot.visits).toMatchObject({ 'sub/step': 1, 'sub/approve': 1, sub: 1, after: 1 });
    expect(d.status).toBe('done');
  });

  it('keeps the whole nested state in the parent snapshot', async () => {
    const d = await startFlow([parent, child]);
    expect(d.snapshot.scope.children).toHaveLength(1);
    expect(d.snapshot.scope.children[0]!.scope.flow).toBe('child');
    expect(d.snapshot.scope.children[0]!.scope.waits[0]!.node).toBe('approve');
  });

  const nesting = (levels: number) =>
    Array.from({ length: levels + 1 }, (_, i) =>
      i < levels
        ? flow({
            id: `f${i}`,
            nodes: [start(), subflow('s', `f${i + 1}`)],
            edges: chain('start', 's'),
          })
        : flow({
            id: `f${i}`,
            nodes: [start(), work('deepest', { reached: 'true' })],
            edges: chain('start', 'deepest'),
          }),
    );

  it('nests 16 deep', async () => {
    const d = await startFlow(nesting(16));
    expect(d.status).toBe('done');
    expect(d.context).toEqual({ reached: true });
  });

  it('fails the sub-flow node that would start depth 17, with a clear error', async () => {
    const d = await startFlow(nesting(17));
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed?.path).toBe(`${'s/'.repeat(16)}s`);
    expect(d.snapshot.failed?.message).toMatch(/at most 16/);
  });

  it('fails a sub-flow node whose flow is missing, naming the flow', async () => {
    const f = flow({ nodes: [start(), subflow('sub', 'nowhere')], edges: chain('start', 'sub') });
    const d = await startFlow([f]);
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed).toEqual({
      path: 'sub',
      message: 'calls flow "nowhere", which is not in the workspace',
    });
  });
});

describe('docs/format.md#nodes, end', () => {
  it('end with terminate ends the whole process, dropping every other branch and wait', async () => {
    const f = flow({
      nodes: [
        start(),
        fanout('split'),
        wait('sleep'),
        end('stop', { terminate: true }),
        work('never'),
      ],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'sleep'),
        edge('split', 'stop'),
        edge('sleep', 'never'),
      ],
    });
    const d = await startFlow([f]);
    expect(d.status).toBe('done');
    expect(waitPaths(d)).toEqual([]);
  });

  it('inside a sub-flow, terminate ends that sub-flow, which completes, and the parent goes on', async () => {
    const child = flow({
      id: 'child',
      nodes: [start(), fanout('split'), wait('sleep'), end('stop', { terminate: true })],
      edges: [...chain('start', 'split'), edge('split', 'sleep'), edge('split', 'stop')],
    });
    const parent = flow({
      id: 'parent',
      nodes: [start(), subflow('sub', 'child'), work('after', { after: 'true' })],
      edges: chain('start', 'sub', 'after'),
    });
    const d = await startFlow([parent, child]);
    expect(d.status).toBe('done');
    expect(d.context).toEqual({ after: true });
  });
});

describe('docs/format.md#statuses, failures', () => {
  it('a failed node fails the process, names the node and writes nothing', async () => {
    const f = flow({
      nodes: [start(), work('w', { first: '1', second: '$error("broken")' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const d = await startFlow([f], { kept: true });
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed?.path).toBe('w');
    expect(d.snapshot.failed?.message).toContain('broken');
    expect(d.context).toEqual({ kept: true });
  });

  it('a condition that cannot be evaluated fails its source node, which writes nothing', async () => {
    const f = flow({
      nodes: [start(), work('w', { x: '1' }), end()],
      edges: [edge('start', 'w'), edge('w', 'end', { when: '$error("no")' })],
    });
    const d = await startFlow([f]);
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed?.message).toMatch(/edge "w>end" condition/);
    expect(d.context).toEqual({});
  });

  it('a runaway expression fails its node within the guardrails instead of hanging', async () => {
    const f = flow({
      nodes: [start(), work('w', { x: '($f := function($x){$f($x)}; $f(1))' })],
      edges: chain('start', 'w'),
    });
    // The time limit is a setting (1 second as shipped); an endless recursion outlasts any.
    setExpressionTimeout(20);
    try {
      const d = await startFlow([f]);
      expect(d.status).toBe('failed');
      expect(d.snapshot.failed?.message).toMatch(/more than 0.02 seconds|calls deep/);
    } finally {
      setExpressionTimeout();
    }
  });

  it('a huge range fails its node at once', async () => {
    const f = flow({
      nodes: [start(), work('w', { x: '[1..10000000]' })],
      edges: chain('start', 'w'),
    });
    const d = await startFlow([f]);
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed?.message).toMatch(/sequence of more than 100,000 items/);
  });
});

describe('expression guardrails on what a node writes', () => {
  it('a value too large for a context fails its node with its size, as soon as it is built', async () => {
    const f = flow({
      nodes: [start(), work('w', { big: '$pad("x", 2000000)' })],
      edges: chain('start', 'w'),
    });
    const d = await startFlow([f]);
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed?.message).toMatch(
      /built a string of 2,000,000 characters; a value holds at most 1,000,000/,
    );
  });

  it('a width beyond what a string can hold fails at once, saying so', async () => {
    const f = flow({
      nodes: [start(), work('w', { big: '$pad("x", 1000000000)' })],
      edges: chain('start', 'w'),
    });
    const d = await startFlow([f]);
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed?.message).toMatch(/too large to hold/);
  });
});
