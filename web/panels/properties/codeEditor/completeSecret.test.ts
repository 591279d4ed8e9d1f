import { describe, expect, it } from 'vitest';
import { completeCallExpression } from './completeSecret.ts';

const paths = ['order', 'order.id', 'order.total'];
const secrets = ['shop', 'shop.test', 'slack-bot'];
const complete = (text: string, pos = text.length, names = secrets, explicit = false) =>
  completeCallExpression(text, pos, paths, names, explicit);
const labels = (text: string, pos = text.length, names = secrets) =>
  complete(text, pos, names)?.options.map((o) => o.label);

describe("completion in a call's URL, headers and body (docs/format.md#calls)", () => {
  it('offers the secret names inside $secret(…) quotes, from where the name starts', () => {
    expect(labels("'Bearer ' & $secret('")).toEqual(secrets);
    expect(labels("'Bearer ' & $secret('sh")).toEqual(['shop', 'shop.test']);
    expect(complete("'Bearer ' & $secret('sh")?.from).toBe("'Bearer ' & $secret('".length);
    // With closeBrackets the editor holds `$secret('')`; the cursor sits between the quotes.
    expect(labels("$secret('')", "$secret('".length)).toEqual(secrets);
    expect(labels('$secret( "sl')).toEqual(['slack-bot']);
  });

  it('offers no name already typed in full, none unknown, and none the format refuses', () => {
    expect(labels("$secret('slack-bot")).toBeUndefined();
    expect(labels("$secret('zz")).toBeUndefined();
    expect(
      labels("$secret('", undefined, ['good', 'has space', "q'uote", 'x'.repeat(101)]),
    ).toEqual(['good']);
  });

  it('offers $secret first after a $, with the JSONata functions that also match', () => {
    const found = complete('$s');
    expect(found?.from).toBe(0);
    expect(found?.options[0]).toMatchObject({ label: '$secret', secretCall: true });
    expect(found?.options.map((o) => o.label)).toContain('$sum');
    expect(labels('1 + $secr')).toEqual(['$secret']);
    expect(labels('$secret')).toBeUndefined();
  });

  it('completes context paths as every expression editor does', () => {
    expect(labels("'https://shop.example/orders/' & order.")).toEqual(['order.id', 'order.total']);
  });

  it('offers nothing inside a string that only mentions $secret(', () => {
    expect(labels("'see $secret('")).toBeUndefined();
    expect(labels("'https://shop.example/")).toBeUndefined();
  });

  it('answers on a huge expression and among a thousand names and a hostile one', () => {
    const huge = `${"'a' & ".repeat(1_500)}$secret('sh`;
    expect(labels(huge)).toEqual(['shop', 'shop.test']);
    // A thousand names, and a hostile one as long as a page.
    const many = Array.from({ length: 1_000 }, (_, i) => `s${i}`);
    expect(labels("$secret('s99", undefined, [...many, 's99'.padEnd(100_000, 'x')])).toEqual([
      's990',
      's991',
      's992',
      's993',
      's994',
      's995',
      's996',
      's997',
      's998',
      's999',
    ]);
  });
});
