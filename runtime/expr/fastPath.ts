/**
 * A synchronous shortcut for the simplest JSONata expressions (`count + 1`, `count < 1000`,
 * `order.status = "paid" and approved`), which are most of what flows hold. jsonata itself
 * evaluates asynchronously, through an environment and sequences, which costs far more than the
 * arithmetic. The shortcut evaluates an expression only when it is sure to give what jsonata
 * gives: literals, field paths, unary minus and the binary operators, on plain values of the
 * types each operator takes. Anything else (an array on the way, a missing field, a number that
 * is not finite, a string where a number belongs, so any case where jsonata would raise an
 * error) answers UNSURE, and the caller asks jsonata, so results and messages never differ.
 * fastPath.property.test.ts holds it to jsonata on generated expressions and awkward values.
 */

import { MAX_VALUE_CHARS } from '../../shared/contextWrite.ts';

/** The shortcut cannot vouch for a result here: evaluate with jsonata. */
export const UNSURE: unique symbol = Symbol('unsure');

export type Shortcut = (input: unknown) => unknown;

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The node has only the given keys (jsonata marks predicates, groups and so on with more). */
function only(node: Node, keys: readonly string[]): boolean {
  for (const k of Object.keys(node)) if (!keys.includes(k)) return false;
  return true;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isPrimitive = (v: unknown) =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number';

const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
const ORDER = new Set(['<', '<=', '>', '>=']);

/**
 * Compiles jsonata's syntax tree (`jsonata(text).ast()`) to a shortcut, or undefined when the
 * expression uses anything outside the subset; such an expression always goes to jsonata.
 */
export function compileShortcut(ast: unknown): Shortcut | undefined {
  if (!isNode(ast)) return undefined;
  switch (ast.type) {
    case 'number':
    case 'string':
    case 'value': {
      if (!only(ast, ['type', 'value', 'position'])) return undefined;
      const value = ast.value;
      if (!isPrimitive(value) || (typeof value === 'number' && !Number.isFinite(value)))
        return undefined;
      return () => value;
    }
    case 'path':
      return pathShortcut(ast);
    case 'block': {
      // `(expr)`: one expression in parentheses, no bindings.
      const list = ast.expressions;
      if (!only(ast, ['type', 'expressions', 'position'])) return undefined;
      if (!Array.isArray(list) || list.length !== 1) return undefined;
      return compileShortcut(list[0]);
    }
    case 'unary': {
      if (ast.value !== '-' || !only(ast, ['type', 'value', 'expression', 'position']))
        return undefined;
      const inner = compileShortcut(ast.expression);
      if (!inner) return undefined;
      return (input) => {
        const v = inner(input);
        return typeof v === 'number' && Number.isFinite(v) ? -v : UNSURE;
      };
    }
    case 'binary':
      return binaryShortcut(ast);
    case 'condition':
      return conditionShortcut(ast);
    case 'function':
      return existsShortcut(ast);
    default:
      return undefined;
  }
}

/** `a.b.c`: own fields of plain objects all the way, ending at a primitive value. */
function pathShortcut(ast: Node): Shortcut | undefined {
  const keys = pathKeys(ast);
  if (!keys) return undefined;
  return (input) => {
    let at = input;
    for (const key of keys) {
      // jsonata maps over arrays and skips missing fields; those answers are left to it.
      if (!isPlainObject(at) || !Object.hasOwn(at, key)) return UNSURE;
      at = at[key];
    }
    return isPrimitive(at) && (typeof at !== 'number' || Number.isFinite(at)) ? at : UNSURE;
  };
}

/**
 * The functions the shortcut evaluates itself, by their jsonata names. Nothing may bind these
 * names for an evaluation (the step binds `$now`, `$millis`, `$random` and `$shuffle`;
 * evaluate.ts refuses them to a test's binding), so that the shortcut's `$exists` is jsonata's.
 */
export const SHORTCUT_FUNCTIONS: ReadonlySet<string> = new Set(['exists']);

/**
 * `$exists(a.b)`: whether the path gives a value. Answered only along plain objects: a field
 * missing from one is false, a primitive at the end (null too) is true; an array or an object
 * at the end, or on the way, is left to jsonata, whose sequences decide there.
 */
function existsShortcut(ast: Node): Shortcut | undefined {
  // `name` is there, undefined, on every call jsonata parses.
  if (!only(ast, ['type', 'name', 'value', 'position', 'arguments', 'procedure'])) return undefined;
  if (ast.name !== undefined) return undefined;
  const procedure = ast.procedure;
  const args = ast.arguments;
  if (ast.value !== '(' || !isNode(procedure) || !Array.isArray(args) || args.length !== 1)
    return undefined;
  if (procedure.type !== 'variable' || !only(procedure, ['type', 'value', 'position']))
    return undefined;
  if (procedure.value !== 'exists' || !SHORTCUT_FUNCTIONS.has(procedure.value)) return undefined;
  const keys = pathKeys(args[0]);
  if (!keys) return undefined;
  return (input) => {
    let at = input;
    for (const key of keys) {
      if (!isPlainObject(at)) return UNSURE;
      if (!Object.hasOwn(at, key)) return false;
      at = at[key];
    }
    return isPrimitive(at) ? true : UNSURE;
  };
}

/** `c ? a : b`, when `c` gives a boolean; jsonata's own truthiness rules are left to it. */
function conditionShortcut(ast: Node): Shortcut | undefined {
  if (!only(ast, ['type', 'position', 'condition', 'then', 'else'])) return undefined;
  const test = compileShortcut(ast.condition);
  const then = compileShortcut(ast.then);
  // Without an else, a false condition gives nothing: that answer is jsonata's to give.
  const otherwise = ast.else === undefined ? undefined : compileShortcut(ast.else);
  if (!test || !then || !otherwise) return undefined;
  return (input) => {
    const c = test(input);
    if (typeof c !== 'boolean') return UNSURE;
    return c ? then(input) : otherwise(input);
  };
}

/** The field names of a path of plain names (`a.b.c`), or undefined for any other node. */
function pathKeys(ast: unknown): string[] | undefined {
  if (!isNode(ast) || ast.type !== 'path' || !only(ast, ['type', 'steps', 'position']))
    return undefined;
  const steps = ast.steps;
  if (!Array.isArray(steps) || steps.length === 0) return undefined;
  const keys: string[] = [];
  for (const s of steps) {
    if (!isNode(s) || s.type !== 'name' || typeof s.value !== 'string') return undefined;
    if (!only(s, ['type', 'value', 'position'])) return undefined;
    keys.push(s.value);
  }
  return keys;
}

function binaryShortcut(ast: Node): Shortcut | undefined {
  if (!only(ast, ['type', 'value', 'lhs', 'rhs', 'position'])) return undefined;
  const op = ast.value;
  if (typeof op !== 'string') return undefined;
  const lhs = compileShortcut(ast.lhs);
  const rhs = compileShortcut(ast.rhs);
  if (!lhs || !rhs) return undefined;
  if (ARITHMETIC.has(op)) {
    const apply = arithmetic(op);
    return (input) => {
      const a = lhs(input);
      if (typeof a !== 'number') return UNSURE;
      const b = rhs(input);
      if (typeof b !== 'number') return UNSURE;
      const r = apply(a, b);
      return Number.isFinite(r) ? r : UNSURE;
    };
  }
  if (ORDER.has(op)) {
    const compare = ordering(op);
    return (input) => {
      const a = lhs(input);
      if (typeof a !== 'number' && typeof a !== 'string') return UNSURE;
      const b = rhs(input);
      // jsonata refuses to compare a number with a string; that error is its to give.
      if (typeof b !== typeof a) return UNSURE;
      return compare(a, b as typeof a);
    };
  }
  if (op === '=' || op === '!=') {
    const equal = op === '=';
    return (input) => {
      const a = lhs(input);
      if (a === UNSURE) return UNSURE;
      const b = rhs(input);
      if (b === UNSURE) return UNSURE;
      return a === b ? equal : !equal;
    };
  }
  if (op === 'and' || op === 'or') {
    // jsonata evaluates the right side only when the left does not decide; so does this.
    const decides = op === 'or';
    return (input) => {
      const a = lhs(input);
      if (typeof a !== 'boolean') return UNSURE;
      if (a === decides) return a;
      const b = rhs(input);
      return typeof b === 'boolean' ? b : UNSURE;
    };
  }
  if (op === '&') {
    return (input) => {
      const a = lhs(input);
      if (typeof a !== 'string') return UNSURE;
      const b = rhs(input);
      if (typeof b !== 'string') return UNSURE;
      // jsonata's guardrail fails a string built over the value limit (guardrails.ts); that
      // failure, and its message, are jsonata's to give.
      return a.length + b.length <= MAX_VALUE_CHARS ? a + b : UNSURE;
    };
  }
  return undefined;
}

function arithmetic(op: string): (a: number, b: number) => number {
  switch (op) {
    case '+':
      return (a, b) => a + b;
    case '-':
      return (a, b) => a - b;
    case '*':
      return (a, b) => a * b;
    case '/':
      return (a, b) => a / b;
    default:
      return (a, b) => a % b;
  }
}

function ordering(op: string): (a: number | string, b: number | string) => boolean {
  switch (op) {
    case '<':
      return (a, b) => a < b;
    case '<=':
      return (a, b) => a <= b;
    case '>':
      return (a, b) => a > b;
    default:
      return (a, b) => a >= b;
  }
}
