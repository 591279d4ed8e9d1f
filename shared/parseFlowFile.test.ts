import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  flow,
  flowsFile,
  minimalFlow,
  start,
  text,
  wait,
  work,
} from './fixtures/flows.ts';
import { MAX_DEPTH, MAX_TEXT_LENGTH } from './jsonText.ts';
import { parseFlowFile, type ParseResult } from './parseFlowFile.ts';

/** The errors of a refusal; fails the test when the text was accepted. */
function errorsOf(result: ParseResult): string[] {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result).slice(0, 200)}`);
  return result.errors;
}

/** The accepted result; fails the test when the text was refused. */
function accepted(result: ParseResult): Extract<ParseResult, { ok: true }> {
  if (!result.ok)
    throw new Error(`expected the file to be accepted, got ${result.errors.join('; ')}`);
  return result;
}

/** A flow/1 document with `overrides` laid over a minimal valid flow. */
const flowDoc = (overrides: Record<string, unknown>) => ({ ...minimalFlow(), ...overrides });

describe('accepting flow/1 and flows/1', () => {
  // Every kind of place where docs/format.md#flows says unknown fields must survive an import.
  const rich = flow({
    id: 'rich',
    name: 'Rich',
    editor: { zoom: 1.5, theme: 'dark' },
    nodes: [
      start('start', { color: 'green', position: { x: 1, y: 2, snapped: true } }),
      work('w', { total: '1 + 1' }, { notes: ['first', 'second'] }),
      wait(
        'sleep',
        [
          { id: 'tick', timer: 'PT1H', note: 'hourly' } as never,
          {
            id: 'ask',
            human: {
              prompt: 'OK?',
              fields: [{ name: 'ok', type: 'boolean', hint: 'tick it' }],
              layout: 'wide',
            },
            into: 'answer',
          } as never,
        ],
        { sticky: true },
      ),
      end('end', { terminate: true, reason: 'finished' }),
    ],
    edges: [
      edge('start', 'w', { style: 'dashed' } as never),
      edge('w', 'sleep'),
      edge('sleep', 'end', { trigger: 'tick', bend: [3, 4] } as never),
    ],
  });

  it('accepts a valid flow/1 and keeps unknown fields at the top level, on nodes, edges and triggers', () => {
    const result = accepted(parseFlowFile(text(rich)));
    expect(result.format).toBe('flow/1');
    expect(result.warnings).toEqual([]);
    expect(result.flows).toHaveLength(1);
    // The parsed flow is the document itself: nothing dropped, nothing added.
    expect(result.flows[0]).toStrictEqual(rich);
    const [parsed] = result.flows;
    expect(parsed).toMatchObject({ editor: { zoom: 1.5, theme: 'dark' } });
    expect(parsed!.nodes[0]).toMatchObject({ color: 'green', position: { snapped: true } });
    expect(parsed!.nodes[2]).toMatchObject({
      sticky: true,
      on: [{ note: 'hourly' }, { human: { layout: 'wide', fields: [{ hint: 'tick it' }] } }],
    });
    expect(parsed!.edges[0]).toMatchObject({ style: 'dashed' });
    expect(parsed!.edges[2]).toMatchObject({ bend: [3, 4] });
  });

  it('accepts a valid flows/1 and keeps unknown fields of each flow, its nodes and edges', () => {
    const child = flow({
      id: 'child',
      owner: 'ops',
      nodes: [start(), end()],
      edges: chain('start', 'end'),
    });
    const result = accepted(parseFlowFile(text(flowsFile([rich, child], { exportedBy: 'test' }))));
    expect(result.format).toBe('flows/1');
    expect(result.flows.map((f) => f.id)).toEqual(['rich', 'child']);
    expect(result.flows[0]).toStrictEqual(rich);
    expect(result.flows[1]).toStrictEqual(child);
  });

  it('accepts a flow that is well formed but cannot run (validateFlow reports that, not the parser)', () => {
    // Two start nodes and an edge to a missing node: docs/format.md#errors says such a flow can be
    // imported and edited.
    const broken = flow({ nodes: [start('a'), start('b')], edges: [edge('a', 'nowhere')] });
    expect(accepted(parseFlowFile(text(broken))).flows[0]).toStrictEqual(broken);
  });

  it('accepts a flows/1 with no flows', () => {
    expect(accepted(parseFlowFile('{"format":"flows/1","flows":[]}')).flows).toEqual([]);
  });
});

describe('broken JSON: the error says line and column', () => {
  // Each expected position is counted by hand, 1-based, on the line shown in the comment.
  it.each([
    {
      name: 'a missing comma between properties points at the next property',
      // line 4 is `  "nodes": []`: two spaces, then the quote in column 3.
      text: '{\n  "format": "flow/1",\n  "id": "x"\n  "nodes": []\n}',
      expected: 'line 4, column 3: expected "," or the end of the object or array',
    },
    {
      name: 'a misspelt literal points at its first letter',
      // `{"a": tru}`: { " a " : space, so `t` is column 7.
      text: '{"a": tru}',
      expected: 'line 1, column 7: unexpected token',
    },
    {
      name: 'a trailing comma in an array points at the closing bracket',
      // line 2 is `  "edges": [1,]`: "edges" is columns 3-9, `:` 10, space 11, `[` 12, `1` 13,
      // `,` 14, so `]` is column 15.
      text: '{\n  "edges": [1,]\n}',
      expected: 'line 2, column 15: expected a value',
    },
    {
      name: 'a trailing comma in an object points at the closing brace',
      // `{"a": 1,}`: `}` is the ninth character.
      text: '{"a": 1,}',
      expected: 'line 1, column 9: expected a property name in double quotes',
    },
    {
      name: 'text that stops inside an object points just past its end',
      // `{"a": 1` is 7 characters, so the missing `}` belongs in column 8.
      text: '{"a": 1',
      expected: 'line 1, column 8: expected "}"',
    },
    {
      name: 'text after the document points at that text',
      // `{"a": 1}` is 8 characters, then a space, so `x` is column 10.
      text: '{"a": 1} x',
      expected: 'line 1, column 10: unexpected token',
    },
    {
      name: 'a tab counts as one column',
      // line 2 is TAB "a" : TAB @: the tab is column 1, `"a"` 2-4, `:` 5, tab 6, `@` 7.
      text: '{\n\t"a":\t@}',
      expected: 'line 2, column 7: unexpected token',
    },
    {
      name: 'CRLF line ends count as one line each',
      // line 3 is ` "b" 2}`: space 1, `"b"` 2-4, space 5, so the value where ":" belongs is 6.
      text: '{\r\n "a": 1,\r\n "b" 2}',
      expected: 'line 3, column 6: expected ":"',
    },
    {
      name: 'a comment is refused where it starts',
      // line 2 is `  // note`: the comment starts in column 3.
      text: '{\n  // note\n  "a": 1\n}',
      expected: 'line 2, column 3: comments are not allowed in JSON',
    },
    {
      name: 'a string that never ends points at its opening quote',
      // line 2 is `  "id": "abc`: "id" is columns 3-6, `:` 7, space 8, the quote 9.
      text: '{\n  "id": "abc',
      expected: 'line 2, column 9: the text ends inside a string',
    },
    {
      name: 'a byte order mark is not counted as a column',
      // Editors hide the BOM: after it, `{"a" 1}` has `1` in column 6, where ":" belongs.
      text: '\uFEFF{"a" 1}',
      expected: 'line 1, column 6: expected ":"',
    },
  ])('$name', ({ text: input, expected }) => {
    expect(errorsOf(parseFlowFile(input))).toEqual([expected]);
  });
});

describe('not a flow file', () => {
  it.each([
    ['an array', '[1, 2]', 'an array'],
    ['null', 'null', 'null'],
    ['a string', '"flow/1"', '"flow/1"'],
    ['a number', '42', 'number 42'],
  ])('refuses %s at the top level: it must be an object', (_name, input, got) => {
    expect(errorsOf(parseFlowFile(input))).toEqual([
      `expected a JSON object with "format", got ${got}`,
    ]);
  });

  it('refuses an object without "format"', () => {
    const [error, ...rest] = errorsOf(parseFlowFile(text({ id: 'f', nodes: [], edges: [] })));
    expect(rest).toEqual([]);
    expect(error).toMatch(/^format: expected "flow\/1" or "flows\/1", got no "format" field/);
  });

  it.each([
    ['an unknown version', '"flow/2"', 'got format "flow/2"'],
    ['a scenario', '"scenario/1"', 'got format "scenario/1"'],
    ['a number', '1', 'got format number 1'],
    ['an object', '{}', 'got format an object'],
  ])('refuses a wrong format: %s', (_name, format, got) => {
    const [error] = errorsOf(parseFlowFile(`{"format": ${format}, "nodes": [], "edges": []}`));
    expect(error).toMatch(/^format: expected "flow\/1" or "flows\/1", /);
    expect(error).toContain(got);
  });

  it('refuses a flow/1 inside flows/1 whose own format is wrong, naming where', () => {
    const doc = flowsFile([minimalFlow('a'), { ...minimalFlow('b'), format: 'flow/9' } as never]);
    expect(errorsOf(parseFlowFile(text(doc)))).toEqual([
      'flows[1].format: expected "flow/1", got "flow/9"',
    ]);
  });
});

describe('node kinds', () => {
  it('refuses an unknown kind, prefixed with the path of the node', () => {
    const doc = flowDoc({
      nodes: [start(), work('b'), end(), { id: 'd', kind: 'wrok' }],
    });
    const errors = errorsOf(parseFlowFile(text(doc)));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.startsWith('nodes[3].kind: unknown kind "wrok"')).toBe(true);
    // It also says what would be right.
    expect(errors[0]).toContain('continue-after');
  });

  it('refuses a node without kind, naming the node', () => {
    const doc = flowDoc({ nodes: [start(), { id: 'x' }] });
    const errors = errorsOf(parseFlowFile(text(doc)));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^nodes\[1\]\.kind: missing kind \(one of start, work, /);
  });

  it('cuts a huge unknown kind short in the message', () => {
    const doc = flowDoc({ nodes: [{ id: 'x', kind: 'k'.repeat(5000) }] });
    const [error] = errorsOf(parseFlowFile(text(doc)));
    // describe() keeps 40 characters and an ellipsis.
    expect(error).toContain(`unknown kind "${'k'.repeat(40)}…"`);
    expect(error!.length).toBeLessThan(300);
  });
});

describe('wrong types', () => {
  it.each([
    ['a numeric flow id', { id: 5 }, 'id: expected a string, got number 5'],
    ['nodes as an object', { nodes: {} }, 'nodes: expected an array, got an object'],
    ['edges as a string', { edges: 'e1' }, 'edges: expected an array, got "e1"'],
    [
      'a numeric edge end',
      { edges: [{ id: 'e', from: 1, to: 'end' }] },
      'edges[0].from: expected a string, got number 1',
    ],
    [
      'a position with a string coordinate',
      { nodes: [start('start', { position: { x: '0', y: 0 } }), end()] },
      'nodes[0].position.x: expected a number, got "0"',
    ],
    [
      'a set expression that is not a string',
      { nodes: [start(), { id: 'w', kind: 'work', set: { a: 1 } }, end()] },
      'nodes[1].set.a: expected a string, got number 1',
    ],
    [
      'terminate as a string',
      { nodes: [start(), end('end', { terminate: 'yes' })] },
      'nodes[1].terminate: expected a boolean, got "yes"',
    ],
    [
      'depends as a string',
      { nodes: [start(), { id: 'j', kind: 'join', depends: 'a' }, end()] },
      'nodes[1].depends: expected an array, got "a"',
    ],
    [
      'a continue-after without "on"',
      { nodes: [start(), { id: 'w', kind: 'continue-after' }, end()] },
      'nodes[1].on: missing (expected an array)',
    ],
    [
      'a human field of an unknown type',
      {
        nodes: [
          start(),
          wait('w', [{ id: 'h', human: { fields: [{ name: 'd', type: 'date' }] } }] as never),
          end(),
        ],
      },
      'nodes[1].on[0].human.fields[0].type: expected "boolean" or "number" or "string", got "date"',
    ],
  ])('refuses %s, naming the path', (_name, overrides, expected) => {
    expect(errorsOf(parseFlowFile(text(flowDoc(overrides))))).toEqual([expected]);
  });

  it('lists every missing required field of a flow', () => {
    expect(errorsOf(parseFlowFile('{"format": "flow/1"}'))).toEqual([
      'id: missing (expected a string)',
      'nodes: missing (expected an array)',
      'edges: missing (expected an array)',
    ]);
  });

  it('lists at most 20 problems and counts the rest', () => {
    // 25 nodes, each with a numeric id: 25 issues.
    const nodes = Array.from({ length: 25 }, (_, i) => ({ id: i, kind: 'work' }));
    const errors = errorsOf(parseFlowFile(text(flowDoc({ nodes }))));
    expect(errors).toHaveLength(21);
    expect(errors[0]).toBe('nodes[0].id: expected a string, got number 0');
    expect(errors[20]).toBe('and 5 more problems');
  });
});

describe('triggers', () => {
  const withTrigger = (trigger: Record<string, unknown>) =>
    text(flowDoc({ nodes: [start(), wait('w', [trigger as never]), end()] }));

  it('refuses a trigger with none of timer, event, human, call', () => {
    expect(errorsOf(parseFlowFile(withTrigger({ id: 't' })))).toEqual([
      'nodes[1].on[0]: a trigger needs one of "timer", "event", "human" or "call"',
    ]);
  });

  it('refuses a trigger with a call and a timer, naming both', () => {
    const [error] = errorsOf(
      parseFlowFile(withTrigger({ id: 't', timer: 'PT1H', call: { url: "'https://a.example'" } })),
    );
    expect(error).toContain('timer and call');
  });

  it('refuses a call with an unknown method, a retry below its bounds, a status out of range, where each is', () => {
    const errors = errorsOf(
      parseFlowFile(
        withTrigger({
          id: 't',
          call: {
            method: 'FETCH',
            url: "'https://a.example'",
            retry: { max: -1, backoff: 0.5, on: [99, 'dns'] },
          },
        }),
      ),
    );
    expect(errors.some((e) => e.startsWith('nodes[1].on[0].call.method: '))).toBe(true);
    expect(errors.some((e) => e.startsWith('nodes[1].on[0].call.retry.max: '))).toBe(true);
    expect(errors.some((e) => e.startsWith('nodes[1].on[0].call.retry.backoff: '))).toBe(true);
    expect(errors.some((e) => e.startsWith('nodes[1].on[0].call.retry.on[0]'))).toBe(true);
    expect(errors.some((e) => e.startsWith('nodes[1].on[0].call.retry.on[1]'))).toBe(true);
  });

  it('reads a call trigger with every field, keeping an unknown one', () => {
    const parsed = parseFlowFile(
      withTrigger({
        id: 'charged',
        into: 'payment',
        call: {
          method: 'POST',
          url: "'https://shop.example/charge'",
          headers: { Authorization: "'Bearer ' & $secret('shop')" },
          body: "{ 'amount': order.total }",
          timeout: 'PT10S',
          retry: {
            max: 4,
            interval: 'PT1S',
            backoff: 2,
            maxInterval: 'PT1M',
            on: [429, 'network'],
          },
          note: 'kept',
        },
      }),
    );
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const node = parsed.flows[0]!.nodes[1]!;
    expect(node.kind === 'continue-after' && node.on[0]!.call).toMatchObject({
      method: 'POST',
      note: 'kept',
    });
  });

  it('refuses a trigger with two of timer, event, human, naming both', () => {
    const [error] = errorsOf(parseFlowFile(withTrigger({ id: 't', timer: 'PT1H', event: 'go' })));
    expect(error).toMatch(/^nodes\[1\]\.on\[0\]: /);
    expect(error).toContain('timer and event');
  });

  it('refuses a trigger with all three', () => {
    const [error] = errorsOf(
      parseFlowFile(withTrigger({ id: 't', timer: 'PT1H', event: 'go', human: { fields: [] } })),
    );
    expect(error).toContain('timer and event and human');
  });

  it('refuses "into" on a timer, which has no payload', () => {
    expect(errorsOf(parseFlowFile(withTrigger({ id: 't', timer: 'PT1H', into: 'x' })))).toEqual([
      'nodes[1].on[0].into: a timer has no payload to put "into"',
    ]);
  });

  it.each([
    ['a timer', { id: 't', timer: 'PT1H' }],
    ['an event with into', { id: 't', event: 'go', into: 'payload' }],
    ['a human', { id: 't', human: { prompt: 'ok?', fields: [{ name: 'ok', type: 'boolean' }] } }],
  ])('accepts exactly one of timer, event, human: %s', (_name, trigger) => {
    expect(accepted(parseFlowFile(withTrigger(trigger))).flows[0]!.nodes[1]).toMatchObject({
      on: [trigger],
    });
  });
});

describe('ids', () => {
  it.each([
    ['the flow', { id: 'a/b' }, 'id'],
    ['a node', { nodes: [start('a/b'), end()] }, 'nodes[0].id'],
    ['an edge', { edges: [edge('start', 'end', { id: 'e/1' })] }, 'edges[0].id'],
    [
      'a trigger',
      { nodes: [start(), wait('w', [{ id: 't/1', timer: 'PT1H' }]), end()] },
      'nodes[1].on[0].id',
    ],
  ])('refuses "/" in the id of %s, since it separates sub-flow paths', (_name, overrides, at) => {
    expect(errorsOf(parseFlowFile(text(flowDoc(overrides))))).toEqual([
      `${at}: must not contain "/" (it separates sub-flow paths)`,
    ]);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the reserved id "%s"', (reserved) => {
    // __proto__ as a key of the document would be stripped; as a value it reaches the schema.
    const doc = flowDoc({
      id: reserved,
      nodes: [start(reserved), end()],
      edges: [edge(reserved, 'end', { id: reserved })],
    });
    const message = 'must not be "__proto__", "constructor" or "prototype"';
    expect(errorsOf(parseFlowFile(text(doc)))).toEqual([
      `id: ${message}`,
      `nodes[0].id: ${message}`,
      `edges[0].id: ${message}`,
    ]);
  });

  it('refuses an empty id', () => {
    expect(errorsOf(parseFlowFile(text(flowDoc({ nodes: [start(''), end()] }))))).toEqual([
      'nodes[0].id: must not be empty',
    ]);
  });

  it('refuses two flows with the same id in flows/1, naming both places', () => {
    const doc = flowsFile([minimalFlow('a'), minimalFlow('b'), minimalFlow('a')]);
    expect(errorsOf(parseFlowFile(text(doc)))).toEqual([
      'flows[2].id: "a" is already the id of flows[0]',
    ]);
  });
});

describe('prototype keys are stripped', () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  afterEach(() => {
    // Should a regression pollute the prototype, keep the damage inside the failing test.
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  /** A naive recursive merge, the kind of copy that `__proto__` keys turn into pollution. */
  function naiveMerge(target: Record<string, unknown>, source: unknown): Record<string, unknown> {
    for (const key of Object.keys(source as object)) {
      const value = (source as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object') {
        const into = (target[key] ?? {}) as Record<string, unknown>;
        target[key] = naiveMerge(into, value);
      } else {
        target[key] = value;
      }
    }
    return target;
  }

  // The keys are written into the JSON text by hand: JSON.stringify of an object literal would
  // not carry a `__proto__` key.
  const hostile = `{
    "format": "flow/1",
    "__proto__": { "polluted": "top" },
    "constructor": { "prototype": { "polluted": "ctor" } },
    "prototype": { "polluted": "proto" },
    "id": "f",
    "nodes": [
      { "id": "start", "kind": "start",
        "meta": { "l1": { "l2": { "l3": { "l4": { "l5": {
          "__proto__": { "polluted": "deep" }, "keep": 1 } } } } } } },
      { "id": "w", "kind": "work",
        "set": { "__proto__": "1", "constructor": "2", "ok": "3" } },
      { "id": "end", "kind": "end" }
    ],
    "edges": [ { "id": "e1", "from": "start", "to": "w" }, { "id": "e2", "from": "w", "to": "end" } ]
  }`;

  it('strips __proto__, constructor and prototype at the top level and deep inside, with warnings', () => {
    const result = accepted(parseFlowFile(hostile));
    const [parsed] = result.flows;
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(Object.hasOwn(parsed!, key)).toBe(false);
    }
    // Five levels into a node's unknown field: the key is gone, its sibling stays.
    type Meta = { meta: { l1: { l2: { l3: { l4: { l5: object } } } } } };
    const l5 = (parsed!.nodes[0] as unknown as Meta).meta.l1.l2.l3.l4.l5;
    expect(Object.hasOwn(l5, '__proto__')).toBe(false);
    expect(l5).toEqual({ keep: 1 });
    // Inside `set`: only the ordinary path is left.
    const set = (parsed!.nodes[1] as { set: Record<string, string> }).set;
    expect(Object.keys(set)).toEqual(['ok']);
    expect(Object.hasOwn(set, '__proto__')).toBe(false);

    // Six keys were stripped (three at the top, one deep, two in set): five are named, one
    // counted. The paths are those a designer would look for.
    expect(result.warnings).toHaveLength(6);
    expect(result.warnings[5]).toBe('and 1 more such keys removed');
    const named = result.warnings.slice(0, 5).map((w) => w.slice(0, w.indexOf(': removed')));
    expect(named).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'prototype']));
    expect(
      named.some((p) =>
        ['nodes[0].meta.l1.l2.l3.l4.l5.__proto__', 'nodes[1].set.__proto__'].includes(p),
      ),
    ).toBe(true);
    for (const w of result.warnings.slice(0, 5)) expect(w).toMatch(/: removed, /);
  });

  it('names each stripped key when there are five or fewer', () => {
    const input =
      '{"format":"flow/1","id":"f","nodes":[{"id":"s","kind":"start","x":{"a":{"b":{"c":{"d":{"__proto__":{}}}}}}},' +
      '{"id":"w","kind":"work","set":{"prototype":"1"}}],"edges":[]}';
    const warnings = accepted(parseFlowFile(input)).warnings.map((w) =>
      w.slice(0, w.indexOf(': removed')),
    );
    expect(warnings.sort()).toEqual(['nodes[0].x.a.b.c.d.__proto__', 'nodes[1].set.prototype']);
  });

  it('leaves Object.prototype untouched, even when the result is copied naively', () => {
    const result = accepted(parseFlowFile(hostile));
    naiveMerge({}, result.flows[0]);
    naiveMerge({}, JSON.parse(JSON.stringify(result.flows)));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
  });

  it('strips prototype keys inside flows/1 too', () => {
    const input = `{"format":"flows/1","__proto__":{"polluted":1},"flows":[
      {"format":"flow/1","id":"a","nodes":[],"edges":[{"id":"e","from":"x","to":"y","constructor":{"polluted":2}}]}]}`;
    const result = accepted(parseFlowFile(input));
    expect(Object.hasOwn(result.flows[0]!.edges[0]!, 'constructor')).toBe(false);
    expect(result.warnings.map((w) => w.slice(0, w.indexOf(': removed'))).sort()).toEqual([
      '__proto__',
      'flows[0].edges[0].constructor',
    ]);
    naiveMerge({}, result.flows);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('hostile and huge input', () => {
  const validText = text(minimalFlow());

  it('reads 20 MB of valid JSON with a huge string field, keeping the field whole', () => {
    const huge = 'x'.repeat(20 * 1024 * 1024);
    const input = text({ ...minimalFlow(), notes: huge });
    expect(input.length).toBeGreaterThan(20 * 1024 * 1024);
    expect(input.length).toBeLessThan(MAX_TEXT_LENGTH);
    const result = accepted(parseFlowFile(input));
    expect((result.flows[0] as { notes?: string }).notes).toHaveLength(huge.length);
  });

  it('refuses text over 32 MB with a message about its size', () => {
    const input = text({ ...minimalFlow(), notes: 'x'.repeat(33 * 1024 * 1024) });
    const errors = errorsOf(parseFlowFile(input));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^the file is 33\.0 MB; files up to 32 MB can be read$/);
  });

  it('reads text of exactly 32 MB and refuses one character more', () => {
    const exact = validText + ' '.repeat(MAX_TEXT_LENGTH - validText.length);
    expect(exact.length).toBe(MAX_TEXT_LENGTH);
    expect(parseFlowFile(exact).ok).toBe(true);
    expect(errorsOf(parseFlowFile(exact + ' '))[0]).toContain('32 MB');
  });

  it('refuses nesting 10,000 levels deep with a message about nesting, without throwing', () => {
    const input = '['.repeat(10_000) + ']'.repeat(10_000);
    const errors = errorsOf(parseFlowFile(input));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`nested more than ${MAX_DEPTH} levels deep`);
  });

  it('says where deep nesting starts when it is inside a flow', () => {
    const input = `{"format":"flow/1","id":"f","nodes":[],"edges":[],"meta":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const [error] = errorsOf(parseFlowFile(input));
    // The path is cut to its first four keys: meta, then three array indexes.
    expect(error).toMatch(/^meta\[0\]\[0\]\[0\]…: nested more than 256 levels deep/);
  });

  it('accepts 256 levels of nesting and refuses 257', () => {
    // Depth counts containers: 256 nested arrays pass the nesting check and are then refused
    // only for not being a flow object; 257 are refused for their depth.
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(errorsOf(parseFlowFile(nested(MAX_DEPTH)))).toEqual([
      'expected a JSON object with "format", got an array',
    ]);
    expect(errorsOf(parseFlowFile(nested(MAX_DEPTH + 1)))[0]).toContain('nested more than');
  });

  it('refuses an unterminated array 10,000 levels deep with a message, without throwing', () => {
    const errors = errorsOf(parseFlowFile('['.repeat(10_000)));
    expect(errors).toHaveLength(1);
    // The text stops early: the message says so, either as the end of the text or as the
    // missing bracket.
    expect(errors[0]).toMatch(/end|"\]"/);
    expect(errors[0]!.length).toBeLessThan(300);
  });

  it.each([
    ['empty text', ''],
    ['only whitespace', ' \n\t\r\n '],
    ['only a byte order mark', '\uFEFF'],
  ])('refuses %s as an empty file', (_name, input) => {
    expect(errorsOf(parseFlowFile(input))).toEqual(['the file is empty']);
  });

  it('reads a file that starts with a byte order mark', () => {
    const result = accepted(parseFlowFile(`\uFEFF${validText}`));
    expect(result.flows[0]).toStrictEqual(minimalFlow());
  });

  it('refuses a raw NUL byte between tokens, saying where', () => {
    // `{"format":"flow/1",` is 19 characters, so the NUL is column 20.
    const input = `{"format":"flow/1",\u0000"id":"f","nodes":[],"edges":[]}`;
    expect(errorsOf(parseFlowFile(input))).toEqual(['line 1, column 20: unexpected token']);
  });

  it.each([
    ['a NUL', '\u0000'],
    ['a control character', '\u0001'],
  ])('refuses %s inside a string, pointing at that string', (_name, char) => {
    // `{"format":"flow/1","id":` is 24 characters: the string opens in column 25.
    const input = `{"format":"flow/1","id":"f${char}","nodes":[],"edges":[]}`;
    const [error] = errorsOf(parseFlowFile(input));
    expect(error).toBe(
      'line 1, column 25: invalid character in a string (control characters must be escaped)',
    );
  });

  it('refuses a raw line break inside a string, pointing at that string', () => {
    // As above, the string opens in column 25 of line 1.
    const input = '{"format":"flow/1","id":"f\n","nodes":[],"edges":[]}';
    const [error] = errorsOf(parseFlowFile(input));
    expect(error).toMatch(/^line 1, column 25: /);
  });

  it('accepts control characters escaped inside strings', () => {
    const input = '{"format":"flow/1","id":"f\\u0000\\u0001","nodes":[],"edges":[]}';
    expect(accepted(parseFlowFile(input)).flows[0]!.id).toBe('f\u0000\u0001');
  });
});

describe('never throws', () => {
  const firstLineLength = (result: ParseResult) =>
    result.ok ? 0 : (result.errors[0] ?? '').split('\n')[0]!.length;

  const holds = (input: string): boolean => {
    const result = parseFlowFile(input);
    if (result.ok) {
      // Accepted: what the file says it is, one flow for flow/1, each with an id, nodes, edges.
      const said = (JSON.parse(input) as { format?: unknown }).format;
      return (
        result.format === said &&
        (said === 'flows/1' || result.flows.length === 1) &&
        result.flows.every(
          (f) =>
            f.format === 'flow/1' &&
            typeof f.id === 'string' &&
            Array.isArray(f.nodes) &&
            Array.isArray(f.edges),
        ) &&
        result.warnings.every((w) => typeof w === 'string' && w.length > 0)
      );
    }
    return result.errors.length > 0 && firstLineLength(result) > 0 && firstLineLength(result) < 300;
  };

  it('returns ok or a non-empty error list with a short first line, for any string', () => {
    fc.assert(fc.property(fc.string(), holds), { numRuns: 2000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), holds), {
      numRuns: 1000,
    });
  });

  it('returns ok or a non-empty error list with a short first line, for any JSON text', () => {
    fc.assert(fc.property(fc.json(), holds), { numRuns: 2000 });
  });

  it('returns ok or a non-empty error list for any cut or splice of a real flow file', () => {
    const real = text(
      flow({
        nodes: [
          start(),
          work('w', { a: '1' }),
          wait('s', [{ id: 't', event: 'go', into: 'x' }]),
          end(),
        ],
        edges: [...chain('start', 'w', 's'), edge('s', 'end', { trigger: 't', when: 'x' })],
      }),
    );
    fc.assert(
      fc.property(
        fc.nat({ max: real.length }),
        fc.nat({ max: real.length }),
        fc.string({ maxLength: 3 }),
        (cut, at, insert) => {
          return holds(real.slice(0, cut)) && holds(real.slice(0, at) + insert + real.slice(at));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('messages stay short and say where, whatever the input', () => {
  const firstError = (input: string) => {
    const result = parseFlowFile(input);
    if (result.ok) throw new Error('expected a refusal');
    return result.errors[0]!;
  };

  it('cuts a huge duplicate flow id short in the message', () => {
    const id = 'k'.repeat(1_000_000);
    const f = { format: 'flow/1', id, nodes: [], edges: [] };
    const message = firstError(JSON.stringify({ format: 'flows/1', flows: [f, f] }));
    expect(message.startsWith('flows[1].id: "kkk')).toBe(true);
    expect(message.length).toBeLessThan(300);
  });

  it('cuts a huge key short in the path of a message', () => {
    const key = 'k'.repeat(1_000_000);
    const input = `{"format":"flow/1","id":"f","nodes":[{"id":"w","kind":"work","set":{"${key}":1}}],"edges":[]}`;
    const message = firstError(input);
    expect(message.startsWith('nodes[0].set["kkk')).toBe(true);
    expect(message.length).toBeLessThan(300);
  });

  it('says a string is not closed on its line, not that the text ends, for a raw line break', () => {
    // `{` 1, `"format"` 2-9, `:` 10, `"flow/1"` 11-18, `,` 19, `"id"` 20-23, `:` 24: the
    // id's opening quote is column 25.
    const message = firstError('{"format":"flow/1","id":"f\n","nodes":[],"edges":[]}');
    expect(message).toBe(
      'line 1, column 25: a string is not closed on its line (write line breaks as \\n)',
    );
  });

  it('names the end of the text for an unterminated array 10,000 levels deep', () => {
    // 10,000 brackets on one line: the text ends after column 10,000, where "]" was due. Which
    // words say so depends on the stack left to the tolerant parser (see jsonText.ts).
    expect(firstError('['.repeat(10_000))).toMatch(
      /^line 1, column 10001: (expected "\]"|the text ends before the document is complete)$/,
    );
  });
});
