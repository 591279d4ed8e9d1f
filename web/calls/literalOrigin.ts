import { originOf } from '../../runtime/calls/originAllowlist.ts';

/**
 * The origin a call's URL expression is sure to reach, read from its text alone, never by
 * evaluating it: the expression is a string literal (`'https://shop.example/api'`), or starts
 * with one that holds the whole host (`'https://shop.example/orders/' & order.id`). Undefined
 * when the text does not say: a literal that stops inside the host
 * (`'https://shop.' & tld`), a URL from the context, a literal with escapes.
 */
export function literalOrigin(expression: string): string | undefined {
  const text = expression.trimStart();
  const quote = text[0];
  if (quote !== "'" && quote !== '"') return undefined;
  const end = text.indexOf(quote, 1);
  if (end === -1) return undefined;
  const literal = text.slice(1, end);
  // An escape could hide the quote's end or change a character: such a literal is not read.
  if (literal.includes('\\')) return undefined;
  const whole = text.slice(end + 1).trim() === '';
  const prefix =
    /^https?:\/\/[^/?#]+(?=[/?#])/i.exec(literal)?.[0] ?? (whole ? literal : undefined);
  return prefix === undefined ? undefined : originOf(prefix);
}
