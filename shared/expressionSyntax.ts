import jsonata from 'jsonata';
import { regexProblem } from './linearRegex.ts';

/** Longer expressions are refused: no designer writes one, and parsing must stay instant. */
export const MAX_EXPRESSION_LENGTH = 10_000;

/**
 * Why a JSONata expression does not parse, in words for the property panel and the problem list
 * (`does not parse: Expected ")" before end of expression, at character 4`); undefined when it
 * parses. Parsing only: evaluation, with its guardrails, belongs to the runtime.
 */
export function expressionProblem(text: string): string | undefined {
  return expressionProblemAt(text)?.message;
}

/** Where a parse error is, in the text: `[from, to)`, as the editor marks it. */
export interface ProblemSpan {
  message: string;
  from: number;
  to: number;
}

/**
 * The problem of `expressionProblem` with the characters it is at: the token the parser stopped
 * on, a point at the end when the expression ends too soon, the whole text for a problem of the
 * whole (a refused regular expression, a length), none for an empty text.
 */
export function expressionProblemAt(text: string): ProblemSpan | undefined {
  // Live validation asks about the same expressions on every edit; parse each text once.
  if (checked.has(text)) return checked.get(text);
  const problem = findProblem(text);
  if (checked.size >= CACHE_LIMIT) checked.clear();
  checked.set(text, problem);
  return problem;
}

const CACHE_LIMIT = 10_000;
const checked = new Map<string, ProblemSpan | undefined>();

/**
 * jsonata's syntax tree of `text`, parsed once per text and shared by whoever only reads it: the
 * check above, the bound functions a flow names (validateFlow.ts) and the runtime's shortcut
 * (runtime/expr/evaluate.ts). Each asked jsonata for a parse of its own, and a parse (with the
 * environment jsonata makes for it) is the larger part of a short command's start: three per
 * expression before a flow's first step. Throws as jsonata does when the text does not parse.
 * The tree is never changed by its readers.
 */
export function expressionAst(text: string): unknown {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  const ast: unknown = jsonata(text).ast();
  // Trees are larger than the answers above: fewer are kept.
  if (parsed.size >= AST_CACHE_LIMIT) parsed.clear();
  parsed.set(text, ast);
  return ast;
}

const AST_CACHE_LIMIT = 2_000;
const parsed = new Map<string, unknown>();

function findProblem(text: string): ProblemSpan | undefined {
  const whole = (message: string): ProblemSpan => ({ message, from: 0, to: text.length });
  if (text.trim() === '') return whole('is empty; write a JSONata expression such as `count + 1`');
  if (text.length > MAX_EXPRESSION_LENGTH) {
    return whole(
      `is ${text.length} characters long; expressions up to ${MAX_EXPRESSION_LENGTH} are accepted`,
    );
  }
  try {
    const problem = regexProblemIn(expressionAst(text));
    return problem === undefined ? undefined : whole(problem);
  } catch (e) {
    if (e instanceof RangeError) return whole('does not parse: it is nested too deeply');
    const err = e as { message?: unknown; position?: unknown; token?: unknown };
    const message = typeof err.message === 'string' ? err.message : 'syntax error';
    if (typeof err.position !== 'number') return whole(`does not parse: ${message}`);
    return {
      message: `does not parse: ${message}, at character ${err.position}`,
      ...errorSpan(text, err.position, err.token),
    };
  }
}

/**
 * jsonata's `position` is the offset just after the token it stopped on; `(end)` is its name for
 * the end of the text, where the error is a point.
 */
export function errorSpan(
  text: string,
  position: number,
  token: unknown,
): { from: number; to: number } {
  const to = Math.max(0, Math.min(position, text.length));
  if (token === '(end)') return { from: text.length, to: text.length };
  if (typeof token === 'string' && token !== '' && text.slice(to - token.length, to) === token)
    return { from: to - token.length, to };
  return { from: Math.max(0, to - 1), to };
}

/**
 * The first regular expression literal of a parsed expression that the runtime's linear-time
 * matcher cannot take (a backreference, a lookaround), so the designer learns it while typing.
 */
function regexProblemIn(ast: unknown): string | undefined {
  let found: string | undefined;
  visitAst(ast, (node) => {
    if (!(node instanceof RegExp)) return;
    found = regexProblem(node);
    return found ? 'stop' : 'skip';
  });
  return found;
}

/**
 * Visits every object of a parsed expression's tree once, with a stack rather than recursion,
 * since the parser accepted whatever nesting it has; the tree's shape differs per node type, so
 * every value is looked into. A node's children are met after the node itself. `visit` may
 * answer 'skip' (not into this node's children) or 'stop' (no further node).
 */
export function visitAst(ast: unknown, visit: (node: object) => 'skip' | 'stop' | void): void {
  const stack: unknown[] = [ast];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const answer = visit(node);
    if (answer === 'stop') return;
    if (answer !== 'skip') for (const child of Object.values(node)) stack.push(child);
  }
}
