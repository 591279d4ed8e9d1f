import { describe, expect, it } from 'vitest';
import { literalOrigin } from './literalOrigin.ts';

describe("a call's origin read from its URL's literal prefix (the properties panel's offer to allow)", () => {
  it.each([
    ["'https://shop.example/api'", 'https://shop.example'],
    ['"HTTPS://Shop.Example:443/x"', 'https://shop.example'],
    ["'https://shop.example'", 'https://shop.example'],
    ["  'http://127.0.0.1:8080/orders/' & order.id & '/charge'", 'http://127.0.0.1:8080'],
    ["'https://shop.example?q=' & q", 'https://shop.example'],
  ])('rule: %s reaches %s', (expression, origin) => {
    expect(literalOrigin(expression)).toBe(origin);
  });

  it.each([
    ["'https://shop.' & tld"],
    ["'https://shop.example' & path"],
    ['base & "/orders"'],
    ["'ftp://files.example/x'"],
    ["'https://shop.example\\u002fx'"],
    ["'https://unclosed.example/"],
    [''],
    ["'" + 'x'.repeat(100_000)],
  ])('rule: %s says no origin for sure', (expression) => {
    expect(literalOrigin(expression)).toBeUndefined();
  });
});
