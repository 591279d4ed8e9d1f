import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Flow, FlowNode, Trigger } from './schema.ts';
import { signature } from './signature.ts';

const KINDS = ['work', 'fanout', 'join', 'continue-after', 'subflow', 'end'] as const;

/** Random flows with every field the signature looks at, and some it must ignore. */
const flowArb: fc.Arbitrary<Flow> = fc
  .record({
    kinds: fc.array(fc.constantFrom(...KINDS), { minLength: 2, maxLength: 8 }),
    seed: fc.array(fc.nat(1000), { minLength: 40, maxLength: 40 }),
    edgeCount: fc.integer({ min: 1, max: 10 }),
  })
  .map(({ kinds, seed, edgeCount }) => {
    let s = 0;
    const pick = (n: number) => seed[s++ % seed.length]! % n;
    const ids = ['start', ...kinds.map((_, i) => `n${i}`)];
    const nodes: FlowNode[] = [{ id: 'start', kind: 'start', position: { x: 0, y: 0 } }];
    kinds.forEach((kind, i) => {
      const base = { id: `n${i}`, label: `Node ${i}`, position: { x: i * 10, y: pick(50) } };
      if (kind === 'work')
        nodes.push({ ...base, kind, set: { [`v${i}`]: `${pick(9)} + 1`, w: 'v0' } });
      else if (kind === 'join')
        nodes.push({ ...base, kind, depends: [ids[pick(ids.length)]!, 'start'] });
      else if (kind === 'continue-after')
        nodes.push({
          ...base,
          kind,
          on: [
            { id: 'timer', timer: `PT${pick(48) + 1}H` },
            { id: 'ev', event: `e${pick(3)}`, into: 'got' },
            {
              id: 'ask',
              human: { prompt: 'Ok?', fields: [{ name: 'ok', type: 'boolean', label: 'OK' }] },
            },
          ],
        });
      else if (kind === 'subflow') nodes.push({ ...base, kind, flow: `sub${pick(3)}` });
      else if (kind === 'end') nodes.push({ ...base, kind, terminate: pick(2) === 0 });
      else nodes.push({ ...base, kind });
    });
    const edges = Array.from({ length: edgeCount }, (_, i) => ({
      id: `e${i}`,
      from: ids[pick(ids.length)]!,
      to: ids[pick(ids.length)]!,
      ...(pick(2) === 0 ? { when: `v0 > ${pick(5)}` } : {}),
    }));
    return { format: 'flow/1' as const, id: 'f', name: 'F', nodes, edges };
  });

/** Rebuilds every object with its keys in a shuffled order, but `set`, whose order is meaning. */
function shuffleKeys(value: unknown, rand: () => number, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, rand));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (parentKey !== 'set') entries.sort(() => rand() - 0.5);
  return Object.fromEntries(entries.map(([k, v]) => [k, shuffleKeys(v, rand, k)]));
}

function seededRandom(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x = (x * 48271) % 2147483647;
    return x / 2147483647;
  };
}

describe('signature (docs/format.md: the same for the same flow, different after any change that changes what runs)', () => {
  it('ignores key order, node order, positions, labels, prompts, field labels and unknown fields', () => {
    fc.assert(
      fc.property(flowArb, fc.integer({ min: 1, max: 1e6 }), (flow, seed) => {
        const rand = seededRandom(seed);
        const cosmetic = structuredClone(flow) as Flow;
        cosmetic.name = 'Renamed';
        (cosmetic as Record<string, unknown>).comment = 'an unknown top-level field';
        for (const n of cosmetic.nodes) {
          n.label = `${n.label ?? ''} (renamed)`;
          n.position = { x: rand() * 1000, y: rand() * 1000 };
          (n as Record<string, unknown>).color = 'teal';
          if (n.kind === 'continue-after') {
            for (const t of n.on) {
              if (t.human) {
                t.human.prompt = 'A new prompt';
                for (const f of t.human.fields) f.label = 'A new label';
              }
            }
          }
        }
        cosmetic.nodes.sort(() => rand() - 0.5);
        const shuffled = shuffleKeys(cosmetic, rand) as Flow;
        expect(signature(shuffled)).toBe(signature(flow));
      }),
      { numRuns: 500 },
    );
  });

  type Mutation = (f: Flow, pick: (n: number) => number) => boolean;
  const mutations: Record<string, Mutation> = {
    'an edge target': (f, pick) => {
      const e = f.edges[pick(f.edges.length)]!;
      e.to = `${e.to}-elsewhere`;
      return true;
    },
    'an edge source': (f, pick) => {
      const e = f.edges[pick(f.edges.length)]!;
      e.from = `${e.from}-elsewhere`;
      return true;
    },
    'an edge condition': (f, pick) => {
      const e = f.edges[pick(f.edges.length)]!;
      e.when = e.when === undefined ? 'true' : `(${e.when}) and true`;
      return true;
    },
    'an edge trigger': (f, pick) => {
      const e = f.edges[pick(f.edges.length)]!;
      e.trigger = e.trigger === 'timer' ? 'ev' : 'timer';
      return true;
    },
    'the order of two edges': (f) => {
      if (f.edges.length < 2) return false;
      f.edges.reverse();
      return true;
    },
    'a node kind': (f, pick) => {
      const n = f.nodes[1 + pick(f.nodes.length - 1)]!;
      (n as { kind: string }).kind = n.kind === 'fanout' ? 'end' : 'fanout';
      return true;
    },
    'a set expression': (f) => {
      const n = f.nodes.find((x) => x.kind === 'work');
      if (n?.kind !== 'work') return false;
      n.set = { ...n.set, w: `(${n.set?.w ?? '0'}) + 1` };
      return true;
    },
    'a trigger': (f) => {
      const n = f.nodes.find((x) => x.kind === 'continue-after');
      if (n?.kind !== 'continue-after') return false;
      n.on[0]!.timer = `${n.on[0]!.timer}0M`.replace('H0M', 'H1M');
      return true;
    },
    'a depends list': (f) => {
      const n = f.nodes.find((x) => x.kind === 'join');
      if (!n) return false;
      n.depends = [...(n.depends ?? []), 'another'];
      return true;
    },
  };

  it('changes after any change to an edge, condition, kind, expression, trigger or join', () => {
    const names = Object.keys(mutations);
    fc.assert(
      fc.property(flowArb, fc.constantFrom(...names), fc.nat(1000), (flow, name, seed) => {
        const changed = structuredClone(flow) as Flow;
        const applied = mutations[name]!(changed, (n) => seed % n);
        fc.pre(applied);
        expect(signature(changed)).not.toBe(signature(flow));
      }),
      { numRuns: 500 },
    );
  });

  describe('of a call (docs/format.md#calls: its fields but labels count)', () => {
    const callFlow = (trigger: Trigger, label = 'Charge'): Flow => ({
      format: 'flow/1',
      id: 'f',
      nodes: [{ id: 'pay', kind: 'continue-after', label, on: [trigger] }],
      edges: [],
    });
    const base = (): Trigger => ({
      id: 'charged',
      into: 'payment',
      call: {
        method: 'POST',
        url: "'https://a.example/charge'",
        headers: { Authorization: "'Bearer ' & $secret('shop')", 'X-A': "'1'" },
        body: '{ "amount": total }',
        timeout: 'PT10S',
        retry: { max: 4, interval: 'PT1S', backoff: 2, maxInterval: 'PT1M', on: [429] },
      },
    });
    const changes: Record<string, (t: Trigger) => void> = {
      method: (t) => (t.call!.method = 'PUT'),
      url: (t) => (t.call!.url = "'https://b.example/charge'"),
      'a header value': (t) => (t.call!.headers!['X-A'] = "'2'"),
      'a header name': (t) => (t.call!.headers = { Authorization: "'x'", 'X-B': "'1'" }),
      body: (t) => (t.call!.body = '{ "amount": total + 1 }'),
      timeout: (t) => (t.call!.timeout = 'PT11S'),
      'retry max': (t) => (t.call!.retry!.max = 5),
      'retry interval': (t) => (t.call!.retry!.interval = 'PT2S'),
      'retry backoff': (t) => (t.call!.retry!.backoff = 3),
      'retry maxInterval': (t) => (t.call!.retry!.maxInterval = 'PT2M'),
      'retry on': (t) => (t.call!.retry!.on = [429, 503]),
      'no retry': (t) => delete t.call!.retry,
      into: (t) => (t.into = 'charge'),
    };
    for (const [what, change] of Object.entries(changes)) {
      it(`changes with the call's ${what}`, () => {
        const changed = base();
        change(changed);
        expect(signature(callFlow(changed))).not.toBe(signature(callFlow(base())));
      });
    }

    it("stays the same for a new label, the headers' order and an unknown field of the call", () => {
      const other = base();
      other.call!.headers = { 'X-A': "'1'", Authorization: "'Bearer ' & $secret('shop')" };
      (other.call as Record<string, unknown>).note = 'unknown';
      expect(signature(callFlow(other, 'Take the money'))).toBe(signature(callFlow(base())));
    });
  });

  it('keeps the order of set expressions, which run in the order written', () => {
    const flow = (set: Record<string, string>): Flow => ({
      format: 'flow/1',
      id: 'f',
      nodes: [{ id: 'w', kind: 'work', set }],
      edges: [],
    });
    expect(signature(flow({ a: '1', b: 'a + 1' }))).not.toBe(
      signature(flow({ b: 'a + 1', a: '1' })),
    );
  });
});
