import { expressionAst, expressionProblem, visitAst } from './expressionSyntax.ts';

/** The most paths one expression is said to read: past it, a list would say nothing. */
export const MAX_PATHS_READ = 50;

type Step = {
  type?: unknown;
  value?: unknown;
  stages?: unknown;
  predicate?: unknown;
  position?: unknown;
};
type PathNode = { type?: unknown; steps?: unknown };

/**
 * The context paths a JSONata expression reads, found in its syntax tree without running it
 * (`prices.read + 1` reads `prices.read`; `$count(items[price > 5])` reads `items`), in the order
 * first met, none for an expression that does not parse. A path is the run of names a path
 * expression starts with, from the context (`a.b`, `$$.a.b`), up to a step that filters, groups
 * or maps: what follows is relative to each item, not a path of the context. A path from a
 * variable (`$x.a`) is not the context's. Static, so a guess at most: a name built at run time
 * (`$lookup($$, key)`) is not seen, and a branch that never runs is counted.
 */
export function contextPathsRead(text: string): string[] {
  if (expressionProblem(text) !== undefined) return [];
  // Each path with where it is in the text: the tree is walked in no order of the text's.
  const found = new Map<string, number>();
  pathsIn(expressionAst(text), found);
  return [...found]
    .sort((a, b) => a[1] - b[1])
    .slice(0, MAX_PATHS_READ)
    .map(([path]) => path);
}

/** Adds the paths read in a tree, or in one node of it (a path's first step), to `found`. */
function pathsIn(ast: unknown, found: Map<string, number>): void {
  visitAst(ast, (node) => {
    const n = node as PathNode;
    if (n.type !== 'path' || !Array.isArray(n.steps)) return;
    const steps = n.steps as Step[];
    const path = leadingNames(steps);
    if (path === undefined) {
      // A path from something else (a function's answer, a variable): its first step may read
      // the context (`$count(items).x` reads `items`); the steps after it read that value.
      pathsIn(steps[0], found);
    } else if (path !== '') {
      const at = typeof steps[0]?.position === 'number' ? steps[0].position : 0;
      found.set(path, Math.min(at, found.get(path) ?? at));
    }
    // The steps' filters and blocks read from each item, not from the context: not looked into.
    return 'skip';
  });
}

/**
 * The dotted names a path of the context starts with (`''` for `$$` alone), or undefined for a
 * path that does not start at the context.
 */
function leadingNames(steps: readonly Step[]): string | undefined {
  let i = 0;
  const first = steps[0];
  // `$$` (the root) and `$` (the input, the context in a node's expression) start at the context.
  if (first?.type === 'variable' && (first.value === '$' || first.value === '')) i = 1;
  else if (first?.type !== 'name') return undefined;
  const names: string[] = [];
  for (; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.type !== 'name' || typeof step.value !== 'string') break;
    names.push(step.value);
    if (step.stages !== undefined || step.predicate !== undefined) break;
  }
  return names.join('.');
}
