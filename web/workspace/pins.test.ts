import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkWithSchema } from '../../shared/fixtures/schemaValidator.ts';
import { MAX_PIN_CHARS, type Pin } from '../../shared/pins.ts';
import type { Flow } from '../../shared/schema.ts';
import { flowsFileText } from './exportFlows.ts';
import { importFlows } from './importFlows.ts';

const payment = JSON.parse(
  readFileSync(new URL('../../examples/order-with-payment.flow.json', import.meta.url), 'utf8'),
) as Flow;

const pin: Pin = {
  flow: 'order-with-payment',
  node: 'pay',
  trigger: 'charged',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { id: 'ch_1', paid: true },
};

/** A flows/1 file of the payment example with `pins` as given, whatever their shape. */
const fileWith = (pins: unknown) => JSON.stringify({ format: 'flows/1', flows: [payment], pins });

describe('pins in flows/1 exports and imports (docs/format.md#pinned-answers)', () => {
  it('rule: an export holds the pins of its flows only, and meets the flows/1 JSON Schema', () => {
    const other = { ...pin, flow: 'not-exported' };
    const value = JSON.parse(flowsFileText([payment], [pin, other])) as { pins: Pin[] };
    expect(value.pins).toEqual([pin]);
    expect(checkWithSchema(value)).toEqual({ ok: true, errors: 'No errors' });
  });

  it('rule: an export of flows with no pin has no "pins" field', () => {
    expect(JSON.parse(flowsFileText([payment], [])) as object).not.toHaveProperty('pins');
  });

  it('rule: an import restores the pins of an export, following a flow that came in renamed', () => {
    const first = importFlows(flowsFileText([payment], [pin]), new Set());
    expect(first.ok && first.pins).toEqual([pin]);
    const again = importFlows(flowsFileText([payment], [pin]), new Set(['order-with-payment']));
    expect(again.ok && again.pins).toEqual([{ ...pin, flow: 'order-with-payment-2' }]);
  });

  it('rule: a pin keeps only the headers that say how to read an answer, never a cookie', () => {
    const result = importFlows(
      fileWith([{ ...pin, headers: { 'Content-Type': 'text/plain', 'Set-Cookie': 's=1' } }]),
      new Set(),
    );
    expect(result.ok && result.pins[0]!.headers).toEqual({ 'content-type': 'text/plain' });
  });

  it('bad input: a pin of the wrong shape refuses the file, naming where', () => {
    for (const [pins, where] of [
      [{ not: 'an array' }, /imported: pins: expected an array/],
      [[{ ...pin, status: 'ok' }], /pins\[0\]\.status: expected a number/],
      [[{ ...pin, status: 42 }], /pins\[0\]\.status: /],
      [[{ ...pin, node: undefined }], /pins\[0\]\.node: missing/],
      [[{ ...pin, headers: { 'content-type': 7 } }], /pins\[0\]\.headers\.content-type: /],
    ] as const) {
      const result = importFlows(fileWith(pins), new Set());
      expect(result.ok).toBe(false);
      expect(!result.ok && result.message).toMatch(where);
    }
  });

  it('bad input: a pin whose body passes the pin limit refuses the file, naming it', () => {
    const huge = { ...pin, body: 'x'.repeat(MAX_PIN_CHARS) };
    const result = importFlows(fileWith([huge]), new Set());
    expect(!result.ok && result.message).toMatch(/pins\[0\]: a pin may be at most 256 KB as JSON/);
  });

  it('bad input: more pins than a workspace keeps refuses the file', () => {
    const many = Array.from({ length: 1001 }, () => pin);
    const result = importFlows(fileWith(many), new Set());
    expect(!result.ok && result.message).toMatch(/pins: at most 1000 pins/);
  });

  it('bad input: a pin for a flow, node or trigger that is not a call of the file is dropped, with a warning naming it', () => {
    const result = importFlows(
      fileWith([
        { ...pin, flow: 'elsewhere' },
        { ...pin, node: 'ghost' },
        { ...pin, node: 'place' },
        pin,
      ]),
      new Set(),
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.pins).toEqual([pin]);
    expect(result.warnings).toEqual([
      'pins[0]: the file has no flow "elsewhere"; the pin was dropped',
      'pins[1]: flow "order-with-payment" has no node "ghost"; the pin was dropped',
      'pins[2]: node "place" has no call trigger "charged"; the pin was dropped',
    ]);
  });
});
