import { expressionAst, expressionProblem, visitAst } from './expressionSyntax.ts';
import { quote } from './quote.ts';

import { SECRET_NAME } from './secretName.ts';

/** The placeholder a secret stands as in a recorded request: the sender puts the value there. */
export const secretPlaceholder = (name: string): string => `{{secret:${name}}}`;

/** What an expression does with `$secret`: the names it reads, and each use that is not allowed. */
export interface SecretUses {
  /** Names read by `$secret('name')`, in the order first read. */
  names: string[];
  /** Each use other than a call with one string literal that is a secret's name. */
  problems: string[];
}

/** What an expression that never names `$secret` gives: this one object, to compare against. */
export const NO_SECRETS: SecretUses = Object.freeze({ names: [], problems: [] }) as SecretUses;

type AstNode = { type?: unknown; value?: unknown; procedure?: unknown; arguments?: unknown };

/**
 * The `$secret` uses of a JSONata expression (none for one that does not parse, whose problem is
 * reported on its own). Only `$secret('name')` with a literal name is allowed: a name computed
 * from the context would let a flow's data choose which secret a request carries, and `$secret`
 * passed around as a value could not be followed.
 */
export function secretUses(text: string): SecretUses {
  if (!text.includes('secret') || expressionProblem(text) !== undefined) return NO_SECRETS;
  const names = new Set<string>();
  const problems: string[] = [];
  const allowed = new Set<object>();
  // A function's procedure (the `$secret` variable) is met after the function itself.
  visitAst(expressionAst(text), (node) => {
    const n = node as AstNode;
    if (n.type === 'function' && isSecretVariable(n.procedure)) {
      allowed.add(n.procedure as object);
      const args = Array.isArray(n.arguments) ? (n.arguments as AstNode[]) : [];
      const name = args.length === 1 && args[0]!.type === 'string' ? args[0]!.value : undefined;
      if (typeof name !== 'string')
        problems.push("$secret takes one name written as text, such as $secret('shop')");
      else if (!SECRET_NAME.test(name))
        problems.push(
          `$secret(${quote(name)}): a secret's name is letters, digits, "_", "." and "-"`,
        );
      else names.add(name);
    } else if (isSecretVariable(n) && !allowed.has(n)) {
      problems.push("$secret can only be called, as $secret('name')");
    }
  });
  if (names.size === 0 && problems.length === 0) return NO_SECRETS;
  return { names: [...names], problems: [...new Set(problems)] };
}

function isSecretVariable(node: unknown): boolean {
  const n = node as AstNode | null;
  return n !== null && typeof n === 'object' && n.type === 'variable' && n.value === 'secret';
}
