import type { FlowEdge } from '../schema.ts';
import { one, text, type El } from './moddle.ts';

/** A sequence flow's condition as a `when`, or why it cannot be one. */
export function conditionOf(
  flow: El,
  expressionLanguage: string | undefined,
): { when?: string; problems: string[] } {
  const expression = one(flow, 'conditionExpression');
  if (!expression) return { problems: [] };
  const body = (text(expression, 'body') ?? '').trim();
  const language = text(expression, 'language') ?? expressionLanguage;
  if (body === '')
    return { problems: ['the condition is empty; write one in JSONata, or remove it'] };
  if (language !== undefined && /jsonata/i.test(language)) return { when: body, problems: [] };
  const foreign = /^[$#]\{[\s\S]*\}$/.test(body) ? 'JUEL' : language;
  // With no language named, a condition is taken as JSONata: validation says if it does not parse.
  if (foreign === undefined) return { when: body, problems: [] };
  const shown = body.length > 60 ? `${body.slice(0, 60)}…` : body;
  return {
    problems: [
      `the condition "${shown}" is in another expression language (${foreign}); flow/1 conditions are JSONata: write it as one`,
    ],
  };
}

/**
 * A default flow (`default` on a gateway or task) is taken when no other condition holds: its
 * `when` says so in JSONata, from the others' conditions as written.
 */
export function defaultFlows(
  sources: readonly El[],
  edgeOf: ReadonlyMap<El, FlowEdge>,
  outs: (el: El) => El[],
  noteEdge: (id: string, message: string) => void,
): void {
  for (const source of sources) {
    const fallback = one(source, 'default');
    const edge = fallback && edgeOf.get(fallback);
    if (!edge) continue;
    const others = outs(source).filter((f) => f !== fallback && one(f, 'conditionExpression'));
    const whens = others.map((f) => edgeOf.get(f)?.when);
    if (whens.some((w) => w === undefined)) {
      noteEdge(
        edge.id,
        'the default flow is taken when no other condition holds, and one of those conditions was not kept',
      );
    }
    const kept = whens.filter((w): w is string => w !== undefined);
    if (kept.length > 0) edge.when = kept.map((w) => `$not(${w})`).join(' and ');
  }
}

/**
 * An exclusive gateway takes the first of its flows, in order, whose condition holds; flow/1
 * takes every edge whose condition holds. So each condition also says that none before it held.
 * Runs after `defaultFlows`, whose conditions already exclude every other flow.
 */
export function exclusiveFlows(
  gateways: readonly El[],
  edgeOf: ReadonlyMap<El, FlowEdge>,
  outs: (el: El) => El[],
): void {
  for (const g of gateways) {
    const before: string[] = [];
    for (const f of outs(g)) {
      const edge = edgeOf.get(f);
      if (!edge || f === one(g, 'default')) continue;
      const own = edge.when ?? 'true';
      if (before.length > 0) {
        const none = before.map((w) => `$not(${w})`).join(' and ');
        edge.when = edge.when === undefined ? none : `${none} and (${edge.when})`;
      }
      before.push(own);
    }
  }
}
