import { describe, expect, it } from 'vitest';
import { callWait, chain, edge, end, flow, start, work } from './fixtures/flows.ts';
import type { Call, Flow, Trigger } from './schema.ts';
import { validateFlow, type Problem } from './validateFlow.ts';

/** start → pay (a continue-after with the call, and `others`) → end. */
const withCall = (call: Call, others: Trigger[] = []): Flow =>
  flow({
    nodes: [start(), callWait('pay', call, others), end()],
    edges: chain('start', 'pay', 'end'),
  });

const URL_OK = "'https://shop.example/charge'";

/** The problems of the flow, as rule, place and message. */
const problems = (f: Flow): Problem[] => validateFlow(f);

/** The one problem of `rule`, on the node `pay`; fails unless there is exactly one. */
function onlyProblem(f: Flow, rule: string): Problem {
  const all = problems(f);
  const found = all.filter((p) => p.rule === rule);
  expect(found, `problems of rule ${rule} among ${all.length}`).toHaveLength(1);
  return found[0]!;
}

describe('a call trigger (docs/format.md#calls)', () => {
  it('with every field, as the contract writes it, has no problem', () => {
    const f = withCall(
      {
        method: 'POST',
        url: "'https://shop.example/api/orders/' & order.id & '/charge'",
        headers: { Authorization: "'Bearer ' & $secret('shop')" },
        body: "{ 'amount': order.total }",
        timeout: 'PT10S',
        retry: { max: 4, interval: 'PT1S', backoff: 2, maxInterval: 'PT1M', on: [429, 'timeout'] },
      },
      [{ id: 'late', timer: 'PT2M' }],
    );
    expect(problems(f)).toEqual([]);
  });

  it('refuses two calls on one continue-after, on its node', () => {
    const f = withCall({ url: URL_OK }, [{ id: 'again', call: { url: URL_OK } }]);
    const p = onlyProblem(f, 'call-count');
    expect(p.nodeId).toBe('pay');
    expect(p.message).toContain('"c", "again"');
  });

  it('refuses a url, header or body expression that does not parse, naming the field', () => {
    const f = withCall({ url: "'https://a.example' &", headers: { 'X-A': '(' }, body: '{' });
    const messages = problems(f)
      .filter((p) => p.rule === 'expression-syntax')
      .map((p) => [p.nodeId, p.message.split(':')[0]]);
    expect(messages).toEqual([
      ['pay', 'trigger "c" url'],
      ['pay', 'trigger "c" header "X-A"'],
      ['pay', 'trigger "c" body'],
    ]);
  });

  it('refuses a literal url that is not http(s)', () => {
    expect(onlyProblem(withCall({ url: "'ftp://a.example/x'" }), 'call-url').message).toBe(
      'trigger "c" url: "ftp://a.example/x" is not an http:// or https:// URL',
    );
    expect(onlyProblem(withCall({ url: "'https://'" }), 'call-url').message).toContain(
      'is not a URL',
    );
  });

  it('refuses a header name that is not a token, one the runtime sets, and one named twice', () => {
    const f = withCall({
      url: URL_OK,
      headers: { 'Bad Name': "'x'", 'Idempotency-Key': "'k'", 'X-A': "'1'", 'x-a': "'2'" },
    });
    const found = problems(f).filter((p) => p.rule === 'call-headers');
    expect(found.map((p) => p.message)).toEqual([
      'trigger "c" header "Bad Name": not a header name (letters, digits, "-" …)',
      'trigger "c" header "Idempotency-Key": the runtime sets it; leave it out',
      'trigger "c" header "x-a": named twice (names ignore case)',
    ]);
    expect(found.every((p) => p.nodeId === 'pay')).toBe(true);
  });

  it('refuses a huge header map with one problem, not one per header', () => {
    const headers = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`X-H${i}`, "'v'"]),
    );
    expect(onlyProblem(withCall({ url: URL_OK, headers }), 'call-headers').message).toBe(
      'trigger "c" has 10,000 headers; at most 50 are allowed',
    );
  });

  it('refuses durations that are not ISO-8601 (a negative one), no time at all, or too long a timeout', () => {
    const f = withCall({
      url: URL_OK,
      timeout: 'PT0S',
      retry: { interval: '-PT1S', maxInterval: 'soon' },
    });
    expect(
      problems(f)
        .filter((p) => p.rule === 'call-duration')
        .map((p) => p.message),
    ).toEqual([
      'trigger "c" timeout: must be longer than no time at all',
      'trigger "c" retry interval: "-PT1S" is not an ISO-8601 duration such as PT30M, PT24H or P1D',
      'trigger "c" retry maxInterval: "soon" is not an ISO-8601 duration such as PT30M, PT24H or P1D',
    ]);
    expect(onlyProblem(withCall({ url: URL_OK, timeout: 'PT2H' }), 'call-duration').message).toBe(
      'trigger "c" timeout: at most PT1H is allowed',
    );
  });

  it('bounds the retry: max at 100, backoff at 100, a cap no shorter than the interval', () => {
    const f = withCall({
      url: URL_OK,
      retry: { max: 1e9, backoff: 1e6, interval: 'PT1M', maxInterval: 'PT1S' },
    });
    expect(
      problems(f)
        .filter((p) => p.rule === 'call-retry')
        .map((p) => p.message),
    ).toEqual([
      'trigger "c" retry max: 1,000,000,000 is more than the 100 retries allowed',
      'trigger "c" retry backoff: at most 100 is allowed',
      'trigger "c" retry maxInterval: is shorter than the interval it caps',
    ]);
    expect(problems(withCall({ url: URL_OK, retry: { max: 100, backoff: 100 } }))).toEqual([]);
  });
});

describe('$secret (docs/format.md#calls)', () => {
  it('refuses a name computed from the context, $secret passed as a value, and a name that is not one', () => {
    const f = withCall({
      url: "'https://a.example/' & $secret(order.name)",
      headers: { 'X-A': '($s := $secret; $s("shop"))', 'X-B': "$secret('sh op')" },
    });
    expect(
      problems(f)
        .filter((p) => p.rule === 'secret-use')
        .map((p) => p.message),
    ).toEqual([
      'trigger "c" url: $secret takes one name written as text, such as $secret(\'shop\')',
      'trigger "c" header "X-A": $secret can only be called, as $secret(\'name\')',
      'trigger "c" header "X-B": $secret("sh op"): a secret\'s name is letters, digits, "_", "." and "-"',
    ]);
  });

  it('refuses $secret in a set expression, on its node', () => {
    const f = flow({
      nodes: [start(), work('leak', { token: "$secret('shop')" }), end()],
      edges: chain('start', 'leak', 'end'),
    });
    const p = onlyProblem(f, 'secret-use');
    expect(p.nodeId).toBe('leak');
    expect(p.message).toMatch(/^set "token": uses \$secret, which only a call's url/);
  });

  it("refuses $secret in an edge's condition, on its edge", () => {
    const f = flow({
      nodes: [start(), end()],
      edges: [edge('start', 'end', { id: 'e', when: "$secret('shop') = 'x'" })],
    });
    const p = onlyProblem(f, 'secret-use');
    expect(p.edgeId).toBe('e');
  });

  it('lets an expression pass that merely contains the word secret', () => {
    const f = flow({
      nodes: [start(), work('w', { 'a.secretive': 'order.secret & "x"' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    expect(problems(f)).toEqual([]);
  });
});
