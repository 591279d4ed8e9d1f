import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  fanout,
  flow,
  join,
  minimalFlow,
  start,
  subflow,
  wait,
  work,
} from './fixtures/flows.ts';
import { parseFlowFile } from './parseFlowFile.ts';
import type { Flow } from './schema.ts';
import { validateFlow, type Problem, type ValidateOptions } from './validateFlow.ts';

/** The problems of one rule. */
const problemsOf = (f: Flow, rule: string, options?: ValidateOptions): Problem[] =>
  validateFlow(f, options).filter((p) => p.rule === rule);

/** The one problem of `rule`; fails unless there is exactly one. */
function onlyProblem(f: Flow, rule: string, options?: ValidateOptions): Problem {
  const found = problemsOf(f, rule, options);
  expect(found, `problems of rule ${rule}`).toHaveLength(1);
  return found[0]!;
}

/** start → a → b → end, and a fan-out in the middle, joined again: a flow with no problems. */
const fanoutAndJoin = () =>
  flow({
    nodes: [
      start(),
      fanout('split'),
      work('a', { 'x.a': 'true' }),
      work('b', { 'x.b': 'x.a = true' }),
      join('both', ['a', 'b']),
      end(),
    ],
    edges: [...chain('start', 'split', 'a', 'both', 'end'), ...chain('split', 'b', 'both')],
  });

/** A loop whose head is `read` and whose pass stops at the continue-after `sleep`. */
const loopFlow = () =>
  flow({
    nodes: [start(), work('read', { n: 'n + 1' }), wait('sleep'), end()],
    edges: [
      ...chain('start', 'read', 'sleep'),
      edge('sleep', 'read', { when: 'n < 7' }),
      edge('sleep', 'end', { when: 'n >= 7' }),
    ],
  });

describe('the fixtures', () => {
  it('builds flows that have no problems, so each invalid case below breaks one rule only', () => {
    expect(validateFlow(minimalFlow())).toEqual([]);
    expect(validateFlow(fanoutAndJoin())).toEqual([]);
    expect(validateFlow(loopFlow())).toEqual([]);
  });
});

describe('start-count', () => {
  it('accepts exactly one start node', () => {
    expect(problemsOf(minimalFlow(), 'start-count')).toEqual([]);
  });

  it('refuses a flow with no start node, on the flow as a whole', () => {
    const p = onlyProblem(
      flow({ nodes: [work('a'), end()], edges: chain('a', 'end') }),
      'start-count',
    );
    expect(p.nodeId).toBeUndefined();
    expect(p.edgeId).toBeUndefined();
    expect(p.message).toMatch(/no start node/);
  });

  it('refuses a second start node, on that node, naming the first', () => {
    const f = flow({
      nodes: [start('first'), start('second'), end()],
      edges: [edge('first', 'end'), edge('second', 'end')],
    });
    const p = onlyProblem(f, 'start-count');
    expect(p.nodeId).toBe('second');
    expect(p.message).toContain('"first"');
  });

  it('reports each start node after the first', () => {
    const f = flow({
      nodes: [start('s1'), start('s2'), start('s3'), end()],
      edges: [edge('s1', 'end'), edge('s2', 'end'), edge('s3', 'end')],
    });
    expect(problemsOf(f, 'start-count').map((p) => p.nodeId)).toEqual(['s2', 's3']);
  });
});

describe('duplicate-id', () => {
  it('accepts distinct node and edge ids, even where a node and an edge share one', () => {
    // Nodes and edges are told apart by where they appear: a shared id is no problem.
    const f = flow({ nodes: [start(), end()], edges: [edge('start', 'end', { id: 'end' })] });
    expect(problemsOf(f, 'duplicate-id')).toEqual([]);
  });

  it('refuses two nodes with the same id, on that id', () => {
    const f = flow({
      nodes: [start(), work('twice'), work('twice'), end()],
      edges: chain('start', 'twice', 'end'),
    });
    const p = onlyProblem(f, 'duplicate-id');
    expect(p).toMatchObject({ nodeId: 'twice' });
    expect(p.edgeId).toBeUndefined();
    expect(p.message).toContain('"twice"');
  });

  it('refuses two edges with the same id, on that id', () => {
    const f = flow({
      nodes: [start(), work('a'), end()],
      edges: [edge('start', 'a', { id: 'e' }), edge('a', 'end', { id: 'e' })],
    });
    const p = onlyProblem(f, 'duplicate-id');
    expect(p).toMatchObject({ edgeId: 'e' });
    expect(p.nodeId).toBeUndefined();
    expect(p.message).toContain('"e"');
  });
});

describe('edge-missing-node', () => {
  it('accepts edges between existing nodes', () => {
    expect(problemsOf(fanoutAndJoin(), 'edge-missing-node')).toEqual([]);
  });

  it('refuses an edge from a missing node, naming it', () => {
    const f = flow({
      nodes: [start(), end()],
      edges: [...chain('start', 'end'), edge('ghost', 'end', { id: 'e9' })],
    });
    const p = onlyProblem(f, 'edge-missing-node');
    expect(p.edgeId).toBe('e9');
    expect(p.message).toContain('from "ghost"');
  });

  it('refuses an edge to a missing node, naming it', () => {
    const f = flow({
      nodes: [start(), end()],
      edges: [...chain('start', 'end'), edge('start', 'nowhere', { id: 'e9' })],
    });
    const p = onlyProblem(f, 'edge-missing-node');
    expect(p.edgeId).toBe('e9');
    expect(p.message).toContain('to "nowhere"');
  });

  it('reports both ends when both are missing', () => {
    const f = flow({ nodes: [start(), end()], edges: [...chain('start', 'end'), edge('p', 'q')] });
    const found = problemsOf(f, 'edge-missing-node');
    expect(found.map((p) => p.edgeId)).toEqual(['p>q', 'p>q']);
    expect(found[0]!.message).toContain('"p"');
    expect(found[1]!.message).toContain('"q"');
  });
});

describe('join-depends', () => {
  it('accepts a join that names what it waits for', () => {
    expect(problemsOf(fanoutAndJoin(), 'join-depends')).toEqual([]);
  });

  it.each([
    ['missing', undefined],
    ['empty', []],
  ])('refuses a join whose depends is %s, on the join', (_name, depends) => {
    const f = flow({
      nodes: [start(), join('j', depends), end()],
      edges: chain('start', 'j', 'end'),
    });
    const p = onlyProblem(f, 'join-depends');
    expect(p.nodeId).toBe('j');
    expect(p.message).toContain('depends');
  });

  it('does not ask other kinds of node for depends', () => {
    expect(problemsOf(minimalFlow(), 'join-depends')).toEqual([]);
  });
});

describe('depends-missing', () => {
  it('accepts depends that name nodes of the flow', () => {
    expect(problemsOf(fanoutAndJoin(), 'depends-missing')).toEqual([]);
  });

  it('refuses depends naming a node that does not exist, on the join, naming it', () => {
    const f = fanoutAndJoin();
    f.nodes[4] = join('both', ['a', 'b', 'ghost']);
    const p = onlyProblem(f, 'depends-missing');
    expect(p.nodeId).toBe('both');
    expect(p.message).toContain('"ghost"');
  });

  it('checks depends on any node, not only on joins', () => {
    // docs/format.md: "Any node may carry depends".
    const f = flow({
      nodes: [start(), work('w', {}, { depends: ['ghost'] }), end()],
      edges: chain('start', 'w', 'end'),
    });
    expect(onlyProblem(f, 'depends-missing').nodeId).toBe('w');
  });
});

describe('depends-upstream', () => {
  it('accepts a join after the nodes it names', () => {
    expect(problemsOf(fanoutAndJoin(), 'depends-upstream')).toEqual([]);
  });

  it('accepts a join inside a loop that names a node before it in the same pass', () => {
    // start → head(wait) → x → j → head: x comes before j within each pass.
    const f = flow({
      nodes: [start(), wait('head'), work('x'), join('j', ['x']), end()],
      edges: [...chain('start', 'head', 'x', 'j', 'head'), edge('head', 'end')],
    });
    expect(validateFlow(f)).toEqual([]);
  });

  it('accepts a join inside a loop that names a node before the loop', () => {
    // docs/format.md: a node run once before a loop counts for every pass of a join inside it.
    const f = flow({
      nodes: [start(), work('before'), wait('head'), join('j', ['before']), end()],
      edges: [...chain('start', 'before', 'head', 'j', 'head'), edge('head', 'end')],
    });
    expect(validateFlow(f)).toEqual([]);
  });

  it('refuses a join naming a node that comes after it, with no path back to it', () => {
    // start → a → j → b → end: b runs after j, so j could never wait for it.
    const f = flow({
      nodes: [start(), work('a'), join('j', ['b']), work('b'), end()],
      edges: chain('start', 'a', 'j', 'b', 'end'),
    });
    const p = onlyProblem(f, 'depends-upstream');
    expect(p.nodeId).toBe('j');
    expect(p.message).toContain('"b"');
    expect(p.message).toContain('"j"');
  });

  it('refuses a join naming a node after it in the same loop, reachable only by the closing edge', () => {
    // start → head(wait) → j → x → head: x reaches j only by going round, through x>head, the
    // edge that closes the loop, i.e. in a later pass.
    const f = flow({
      nodes: [start(), wait('head'), join('j', ['x']), work('x'), end()],
      edges: [...chain('start', 'head', 'j', 'x', 'head'), edge('head', 'end')],
    });
    const p = onlyProblem(f, 'depends-upstream');
    expect(p.nodeId).toBe('j');
    expect(p.message).toContain('"x"');
    expect(p.message).toContain('"j"');
  });

  it('refuses a node that depends on itself', () => {
    const f = flow({
      nodes: [start(), join('j', ['j']), end()],
      edges: chain('start', 'j', 'end'),
    });
    const p = onlyProblem(f, 'depends-upstream');
    expect(p.nodeId).toBe('j');
    expect(p.message).toMatch(/itself/);
  });
});

describe('cycle-without-wait', () => {
  it('accepts a cycle that passes through a continue-after', () => {
    expect(problemsOf(loopFlow(), 'cycle-without-wait')).toEqual([]);
  });

  it('accepts a continue-after that loops to itself', () => {
    const f = flow({
      nodes: [start(), wait('again'), end()],
      edges: [...chain('start', 'again', 'again'), edge('again', 'end')],
    });
    expect(validateFlow(f)).toEqual([]);
  });

  it('refuses a cycle of work nodes, naming every node of it', () => {
    // start → a → b → c → a, and c → end: the cycle a, b, c has no place to stop.
    const f = flow({
      nodes: [start(), work('a'), work('b'), work('c'), end()],
      edges: [...chain('start', 'a', 'b', 'c', 'a'), edge('c', 'end')],
    });
    const p = onlyProblem(f, 'cycle-without-wait');
    // The problem sits on the cycle's first node as reached from start.
    expect(p.nodeId).toBe('a');
    for (const id of ['a', 'b', 'c']) expect(p.message).toContain(`"${id}"`);
    expect(p.message).not.toContain('"start"');
    expect(p.message).not.toContain('"end"');
  });

  it('refuses a self-loop on a work node', () => {
    const f = flow({
      nodes: [start(), work('spin'), end()],
      edges: [...chain('start', 'spin', 'spin'), edge('spin', 'end')],
    });
    const p = onlyProblem(f, 'cycle-without-wait');
    expect(p.nodeId).toBe('spin');
    expect(p.message).toContain('"spin"');
  });

  it('refuses a cycle without a wait nested inside a loop that has one', () => {
    // The outer loop read → sleep → read stops at sleep, but read → check → read does not.
    const f = loopFlow();
    f.nodes.push(work('check'));
    f.edges.push(edge('read', 'check'), edge('check', 'read'));
    const p = onlyProblem(f, 'cycle-without-wait');
    expect(p.message).toContain('"read"');
    expect(p.message).toContain('"check"');
    expect(p.message).not.toContain('"sleep"');
  });
});

describe('loop-entries', () => {
  it('accepts a loop entered at one node', () => {
    expect(problemsOf(loopFlow(), 'loop-entries')).toEqual([]);
  });

  it('refuses a cycle entered at two nodes, naming both entries', () => {
    // start → fan → a → w → b → a is a cycle; fan also leads straight to b, a second way in.
    const f = flow({
      nodes: [start(), fanout('fan'), work('a'), wait('w'), work('b'), end()],
      edges: [...chain('start', 'fan', 'a', 'w', 'b', 'a'), edge('fan', 'b'), edge('w', 'end')],
    });
    const p = onlyProblem(f, 'loop-entries');
    expect(['a', 'b']).toContain(p.nodeId);
    // The entries are listed in parentheses; the cycle's nodes before them.
    expect(p.message).toMatch(/\("a", "b"\)|\("b", "a"\)/);
    expect(p.message).toContain('"w"');
    // The cycle has a continue-after, so this is its only problem.
    expect(validateFlow(f)).toEqual([p]);
  });
});

describe('continue-after-triggers', () => {
  it('accepts a continue-after with distinct trigger ids', () => {
    const f = flow({
      nodes: [
        start(),
        wait('w', [
          { id: 'tick', timer: 'PT1H' },
          { id: 'kick', event: 'go' },
        ]),
        end(),
      ],
      edges: chain('start', 'w', 'end'),
    });
    expect(validateFlow(f)).toEqual([]);
  });

  it('refuses a continue-after with no trigger, on that node', () => {
    const f = flow({ nodes: [start(), wait('w', []), end()], edges: chain('start', 'w', 'end') });
    const p = onlyProblem(f, 'continue-after-triggers');
    expect(p.nodeId).toBe('w');
    expect(p.message).toMatch(/no trigger/);
  });

  it('refuses two triggers with the same id, naming it', () => {
    const f = flow({
      nodes: [
        start(),
        wait('w', [
          { id: 'same', timer: 'PT1H' },
          { id: 'same', event: 'go' },
        ]),
        end(),
      ],
      edges: chain('start', 'w', 'end'),
    });
    const p = onlyProblem(f, 'continue-after-triggers');
    expect(p.nodeId).toBe('w');
    expect(p.message).toContain('"same"');
  });
});

describe('edge-trigger', () => {
  const waitsForTwo = (edges: Parameters<typeof flow>[0]['edges']) =>
    flow({
      nodes: [
        start(),
        work('a'),
        wait('w', [
          { id: 'tick', timer: 'PT1H' },
          { id: 'kick', event: 'go' },
        ]),
        end(),
      ],
      edges,
    });

  it('accepts an edge naming a trigger of its continue-after', () => {
    const f = waitsForTwo([
      ...chain('start', 'a', 'w'),
      edge('w', 'end', { trigger: 'tick' }),
      edge('w', 'a', { trigger: 'kick' }),
    ]);
    expect(validateFlow(f)).toEqual([]);
  });

  it('refuses a trigger on an edge whose source is not a continue-after, naming both', () => {
    const f = waitsForTwo([
      edge('start', 'a'),
      edge('a', 'w', { trigger: 'tick' }),
      edge('w', 'end'),
    ]);
    const p = onlyProblem(f, 'edge-trigger');
    expect(p.edgeId).toBe('a>w');
    expect(p.message).toContain('"tick"');
    expect(p.message).toContain('"a"');
    expect(p.message).toContain('work');
  });

  it('refuses an unknown trigger id, naming it and the triggers there are', () => {
    const f = waitsForTwo([...chain('start', 'a', 'w'), edge('w', 'end', { trigger: 'tock' })]);
    const p = onlyProblem(f, 'edge-trigger');
    expect(p.edgeId).toBe('w>end');
    expect(p.message).toContain('"tock"');
    expect(p.message).toContain('"w"');
    expect(p.message).toContain('"tick", "kick"');
  });
});

describe('expression-syntax', () => {
  it('accepts expressions that parse, in set and in when', () => {
    const f = flow({
      nodes: [start(), work('w', { total: '$sum(lines.(price * qty))', ok: 'total > 0' }), end()],
      edges: [edge('start', 'w'), edge('w', 'end', { when: 'ok and total < 1000' })],
    });
    expect(validateFlow(f)).toEqual([]);
  });

  it('refuses a set expression that does not parse, on the node, naming the path', () => {
    const f = flow({
      nodes: [start(), work('w', { 'order.total': 'price *' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const p = onlyProblem(f, 'expression-syntax');
    expect(p.nodeId).toBe('w');
    expect(p.message).toContain('"order.total"');
    expect(p.message).toMatch(/does not parse/);
  });

  it('refuses a condition that does not parse, on the edge', () => {
    const f = flow({
      nodes: [start(), end()],
      edges: [edge('start', 'end', { when: '(a = 1' })],
    });
    const p = onlyProblem(f, 'expression-syntax');
    expect(p.edgeId).toBe('start>end');
    expect(p.nodeId).toBeUndefined();
    expect(p.message).toMatch(/^condition does not parse/);
  });

  it('refuses an empty expression', () => {
    const f = flow({
      nodes: [start(), work('w', { a: '  ' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    expect(onlyProblem(f, 'expression-syntax').message).toMatch(/empty/);
  });
});

describe('timer-duration', () => {
  const timer = (duration: string) =>
    flow({
      nodes: [start(), wait('w', [{ id: 'daily', timer: duration }]), end()],
      edges: chain('start', 'w', 'end'),
    });

  it('accepts PT24H', () => {
    expect(validateFlow(timer('PT24H'))).toEqual([]);
  });

  it.each(['24h', 'P', 'PT'])('refuses %s, naming the trigger and the text', (duration) => {
    const p = onlyProblem(timer(duration), 'timer-duration');
    expect(p.nodeId).toBe('w');
    expect(p.message).toContain('"daily"');
    expect(p.message).toContain(`"${duration}"`);
  });
});

describe('context-path', () => {
  it('accepts dotted paths in set and in into', () => {
    const f = flow({
      nodes: [
        start(),
        work('w', { 'order.total': '1', count: '2' }),
        wait('s', [{ id: 'e', event: 'go', into: 'last.change' }]),
        end(),
      ],
      edges: chain('start', 'w', 's', 'end'),
    });
    expect(validateFlow(f)).toEqual([]);
  });

  it.each([
    ['an empty part', 'a..b'],
    ['a reserved key', 'a.__proto__'],
    ['a leading dot', '.a'],
  ])('refuses a set path with %s, on the node, naming the path', (_name, path) => {
    const f = flow({
      nodes: [start(), work('w', { [path]: '1' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const p = onlyProblem(f, 'context-path');
    expect(p.nodeId).toBe('w');
    expect(p.message).toContain(`"${path}"`);
  });

  it('refuses an into path with a reserved key, naming the trigger', () => {
    const f = flow({
      nodes: [start(), wait('s', [{ id: 'e', event: 'go', into: 'constructor.x' }]), end()],
      edges: chain('start', 's', 'end'),
    });
    const p = onlyProblem(f, 'context-path');
    expect(p.nodeId).toBe('s');
    expect(p.message).toContain('"e"');
    expect(p.message).toContain('"constructor"');
  });
});

describe('human-fields', () => {
  const human = (names: string[]) =>
    flow({
      nodes: [
        start(),
        wait('ask', [
          {
            id: 'answer',
            human: { prompt: 'ok?', fields: names.map((name) => ({ name, type: 'string' })) },
          },
        ]),
        end(),
      ],
      edges: chain('start', 'ask', 'end'),
    });

  it('accepts distinct field names', () => {
    expect(validateFlow(human(['approved', 'note']))).toEqual([]);
  });

  it('refuses two fields with the same name, naming the trigger and the field', () => {
    const p = onlyProblem(human(['note', 'approved', 'note']), 'human-fields');
    expect(p.nodeId).toBe('ask');
    expect(p.message).toContain('"answer"');
    expect(p.message).toContain('"note"');
  });
});

describe('subflow-flow', () => {
  const caller = (callee: string) =>
    flow({
      id: 'main',
      nodes: [start(), subflow('call', callee), end()],
      edges: chain('start', 'call', 'end'),
    });

  it('accepts a sub-flow that is in the workspace', () => {
    const workspace = new Map([['child', minimalFlow('child')]]);
    expect(validateFlow(caller('child'), { flows: workspace })).toEqual([]);
  });

  it('does not look for sub-flows when no workspace is passed', () => {
    expect(problemsOf(caller('child'), 'subflow-flow')).toEqual([]);
  });

  it('refuses a sub-flow missing from the workspace, naming it', () => {
    const workspace = new Map([['other', minimalFlow('other')]]);
    const p = onlyProblem(caller('child'), 'subflow-flow', { flows: workspace });
    expect(p.nodeId).toBe('call');
    expect(p.message).toContain('"child"');
  });

  it('refuses a sub-flow node that names no flow, with or without a workspace', () => {
    expect(onlyProblem(caller(''), 'subflow-flow').nodeId).toBe('call');
    expect(onlyProblem(caller(''), 'subflow-flow', { flows: new Map() }).nodeId).toBe('call');
  });
});

describe('examples', () => {
  const folder = new URL('../examples/', import.meta.url);
  const files = readdirSync(folder).filter((name) => name.endsWith('.json'));

  it('has at least four example files', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files)('%s parses and validates with no problems', (name) => {
    const parsed = parseFlowFile(readFileSync(new URL(name, folder), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.flows.length).toBeGreaterThan(0);
    const options =
      parsed.format === 'flows/1' ? { flows: new Map(parsed.flows.map((f) => [f.id, f])) } : {};
    for (const f of parsed.flows) expect(validateFlow(f, options), f.id).toEqual([]);
  });
});

describe('validateFlow only reads its input', () => {
  // A flow that breaks many rules at once, so that every check runs over it.
  const troubled = () =>
    flow({
      nodes: [
        start(),
        start('s2'),
        work('a', { 'a..b': '1 +', ok: '1' }),
        work('a'),
        work('b'),
        wait('w', [
          { id: 't', timer: '24h' },
          {
            id: 't',
            human: {
              fields: [
                { name: 'x', type: 'string' },
                { name: 'x', type: 'number' },
              ],
            },
          },
        ]),
        join('j', ['zz', 'j', 'b']),
        subflow('sub', 'missing'),
        fanout('fan'),
        end(),
      ],
      edges: [
        ...chain('start', 'a', 'b', 'a'),
        edge('a', 'w', { trigger: 't', when: '(' }),
        edge('w', 'j', { trigger: 'nope' }),
        edge('j', 'b'),
        edge('fan', 'ghost'),
        edge('fan', 'ghost'),
      ],
    });

  it.each([
    ['a flow with many problems', troubled],
    ['a flow with a loop and a join', loopFlow],
  ])('leaves %s deep-equal to what it was', (_name, make) => {
    const input = make();
    const before = structuredClone(input);
    const problems = validateFlow(input, { flows: new Map([['x', minimalFlow('x')]]) });
    expect(input).toStrictEqual(before);
    // The troubled flow must really have gone through the checks.
    if (make === troubled) expect(new Set(problems.map((p) => p.rule)).size).toBeGreaterThan(10);
  });

  it('validates a deeply frozen flow without trying to write to it', () => {
    const freeze = (value: unknown): void => {
      if (value === null || typeof value !== 'object') return;
      Object.freeze(value);
      for (const child of Object.values(value)) freeze(child);
    };
    const input = troubled();
    freeze(input);
    expect(() => validateFlow(input, { flows: new Map() })).not.toThrow();
  });
});
