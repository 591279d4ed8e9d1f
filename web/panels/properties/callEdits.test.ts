import { describe, expect, it } from 'vitest';
import { callProblems } from '../../../shared/callProblems.ts';
import { flowNodeSchema, type Call, type Trigger } from '../../../shared/schema.ts';
import {
  addHeader,
  callFieldProblem,
  headerNameDraftProblem,
  headerNameRefusal,
  removeHeader,
  renameHeader,
  retryDraftProblem,
  retryRefusal,
  retryText,
  setBody,
  setHeaderValue,
  setRetryField,
  setRetryOn,
} from './callEdits.ts';

const URL = "'https://shop.example/charge'";

/** A timer, then the call under edit (index 1): every edit must leave the timer alone. */
const triggers = (call: Call): Trigger[] => [
  { id: 'late', timer: 'PT2M' },
  { id: 'pay', call, into: 'payment' },
];
const callOf = (on: Trigger[]): Call => on[1]!.call!;
/** The format accepts the node the triggers make (docs/format.md#calls). */
const accepted = (on: Trigger[]) =>
  flowNodeSchema.safeParse({ id: 'w', kind: 'continue-after', on }).success;

describe('a call’s headers (docs/format.md#calls)', () => {
  it('are added with a name no header has, ignoring case, and an empty-string value', () => {
    let on = triggers({ url: URL, headers: { 'x-header-1': "'a'" } });
    on = addHeader(on, 1);
    expect(Object.keys(callOf(on).headers!)).toEqual(['x-header-1', 'X-Header-2']);
    expect(callOf(on).headers!['X-Header-2']).toBe("''");
    expect(on[0]).toEqual({ id: 'late', timer: 'PT2M' });
    expect(accepted(on)).toBe(true);
    expect(callProblems(callOf(on))).toEqual([]);
  });

  it('are renamed in place, keeping the order of the others', () => {
    const on = renameHeader(
      triggers({ url: URL, headers: { A: "'1'", B: "'2'", C: "'3'" } }),
      1,
      1,
      'Accept',
    );
    expect(Object.entries(callOf(on).headers!)).toEqual([
      ['A', "'1'"],
      ['Accept', "'2'"],
      ['C', "'3'"],
    ]);
  });

  it('refuse an empty name and a name another header has in any case, changing nothing', () => {
    const headers = { Accept: "'a'", Authorization: "'b'" };
    expect(headerNameRefusal(headers, 1, '')).toBe('a header needs a name');
    expect(headerNameRefusal(headers, 1, 'accept')).toBe('header 1 is already called "accept"');
    expect(headerNameRefusal(headers, 0, 'Accept')).toBeUndefined();
    const on = triggers({ url: URL, headers });
    expect(renameHeader(on, 1, 1, 'ACCEPT')).toEqual(on);
  });

  it('keep a name with spaces, which validation locates on that header’s name', () => {
    const on = renameHeader(triggers({ url: URL, headers: { Accept: "'a'" } }), 1, 0, 'My Header');
    expect(Object.keys(callOf(on).headers!)).toEqual(['My Header']);
    expect(callFieldProblem(callOf(on), 'header:My Header')).toBe(
      'header "My Header": not a header name (letters, digits, "-" …)',
    );
    // The draft says it before it is written, and nothing else of the call is blamed.
    expect(headerNameDraftProblem({ url: URL, headers: { Accept: "'a'" } }, 0, 'My Header')).toBe(
      'header "My Header": not a header name (letters, digits, "-" …)',
    );
    expect(callFieldProblem(callOf(on), 'url')).toBeUndefined();
    expect(headerNameDraftProblem({ url: URL, headers: { A: "'a'" } }, 0, 'Idempotency-Key')).toBe(
      'header "Idempotency-Key": the runtime sets it; leave it out',
    );
  });

  it('take a 10,000-character value, and locate the problem of one character more on it', () => {
    const longest = `'${'x'.repeat(9_998)}'`;
    let on = setHeaderValue(triggers({ url: URL, headers: { Note: "''" } }), 1, 0, longest);
    expect(callOf(on).headers!.Note).toHaveLength(10_000);
    expect(callProblems(callOf(on))).toEqual([]);
    on = setHeaderValue(on, 1, 0, `'${'x'.repeat(9_999)}'`);
    const problem = callFieldProblem(callOf(on), 'header-value:Note');
    expect(problem).toBe(
      'header "Note": the expression is 10001 characters long; expressions up to 10000 are accepted',
    );
    expect(callFieldProblem(callOf(on), 'header:Note')).toBeUndefined();
  });

  it('go with their last row: no empty `headers` is left in the file', () => {
    const on = removeHeader(triggers({ url: URL, headers: { A: "'1'" } }), 1, 0);
    expect(callOf(on)).toEqual({ url: URL });
    expect(
      removeHeader(triggers({ url: URL, headers: { A: "'1'", B: "'2'" } }), 1, 0)[1]!.call!.headers,
    ).toEqual({ B: "'2'" });
  });

  it('leave a trigger without a call as it was', () => {
    const on: Trigger[] = [{ id: 'late', timer: 'PT2M' }];
    expect(addHeader(on, 0)).toEqual(on);
    expect(setBody(on, 0, '1')).toEqual(on);
    expect(setRetryField(on, 3, 'max', '2')).toEqual(on);
  });
});

describe('a call’s body', () => {
  it('is set as written, and an empty one is removed', () => {
    let on = setBody(triggers({ url: URL }), 1, "{ 'amount': order.total }");
    expect(callOf(on).body).toBe("{ 'amount': order.total }");
    on = setBody(on, 1, '  ');
    expect(callOf(on)).toEqual({ url: URL });
  });

  it('has its `$secret` misuse located on it', () => {
    const call = callOf(setBody(triggers({ url: URL }), 1, '$secret(name)'));
    expect(callFieldProblem(call, 'body')).toBe(
      "body: $secret takes one name written as text, such as $secret('shop')",
    );
  });
});

describe('a call’s retry', () => {
  it('is switched on with the defaults written out, and off by removing it', () => {
    let on = setRetryOn(triggers({ url: URL }), 1, true);
    expect(callOf(on).retry).toEqual({ max: 3, interval: 'PT1S', backoff: 2, maxInterval: 'PT1H' });
    expect(accepted(on)).toBe(true);
    // Switching on again keeps what was set.
    on = setRetryField(on, 1, 'max', '5');
    expect(callOf(setRetryOn(on, 1, true)).retry?.max).toBe(5);
    expect(callOf(setRetryOn(on, 1, false))).toEqual({ url: URL });
  });

  it('writes numbers as numbers and the failures as a list, and an empty text removes a field', () => {
    let on = setRetryOn(triggers({ url: URL }), 1, true);
    on = setRetryField(on, 1, 'backoff', '1.5');
    on = setRetryField(on, 1, 'on', ' 429, 503 ,timeout,, ');
    on = setRetryField(on, 1, 'maxInterval', '');
    expect(callOf(on).retry).toEqual({
      max: 3,
      interval: 'PT1S',
      backoff: 1.5,
      on: [429, 503, 'timeout'],
    });
    expect(retryText(callOf(on).retry, 'on')).toBe('429, 503, timeout');
    expect(accepted(on)).toBe(true);
  });

  it('refuses what the format refuses, changing nothing', () => {
    expect(retryRefusal('max', '-1')).toBe('max must be a whole number, 0 or more');
    expect(retryRefusal('max', '1.5')).toBe('max must be a whole number, 0 or more');
    expect(retryRefusal('max', 'lots')).toBe('"lots" is not a number');
    expect(retryRefusal('backoff', '0.5')).toBe('backoff must be 1 or more');
    expect(retryRefusal('on', '429, 600')).toBe(
      '"600" is not a status from 100 to 599, "network" or "timeout"',
    );
    expect(retryRefusal('on', 'network, dns')).toBe(
      '"dns" is not a status from 100 to 599, "network" or "timeout"',
    );
    const on = setRetryOn(triggers({ url: URL }), 1, true);
    expect(setRetryField(on, 1, 'max', '-1')).toEqual(on);
    expect(setRetryField(on, 1, 'on', '2xx')).toEqual(on);
  });

  it('writes a bound validation flags, and the problem is located on that field alone', () => {
    const on = setRetryField(setRetryOn(triggers({ url: URL }), 1, true), 1, 'max', '101');
    expect(callOf(on).retry?.max).toBe(101);
    expect(callFieldProblem(callOf(on), 'retry.max')).toBe(
      'retry max: 101 is more than the 100 retries allowed',
    );
    expect(callFieldProblem(callOf(on), 'retry.backoff')).toBeUndefined();
    // The draft shows the same before it is committed.
    expect(retryDraftProblem({ url: URL, retry: {} }, 'backoff', '101')).toBe(
      'retry backoff: at most 100 is allowed',
    );
    expect(retryDraftProblem({ url: URL, retry: {} }, 'max', '-1')).toBe(
      'max must be a whole number, 0 or more',
    );
  });

  it('locates a duration that is not one, and a cap under the interval, on their fields', () => {
    const call: Call = { url: URL, retry: { interval: 'PT1M', maxInterval: 'PT10S' } };
    expect(callFieldProblem(call, 'retry.maxInterval')).toBe(
      'retry maxInterval: is shorter than the interval it caps',
    );
    expect(callFieldProblem(call, 'retry.interval')).toBeUndefined();
    expect(retryDraftProblem(call, 'interval', 'soon')).toMatch(/^retry interval: /);
  });
});
